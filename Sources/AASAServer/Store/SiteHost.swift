import Metrics

/// A host the origin serves: its files and the counters its requests feed.
/// Aliases share the instance of their target.
public final class SiteHost: Sendable {
    /// The directory's host name (`example.com` or `*.example.com`).
    public let name: String
    public let appleAppSiteAssociation: ServedFile?
    public let assetLinks: ServedFile?
    /// The certificate for this host (`tls/cert.pem` + `tls/key.pem`), chosen by SNI.
    public let tls: LoadedIdentity?
    /// Per-status request counters, created at load so the request path never
    /// looks one up by label.
    let counters: RequestCounters

    init(name: String, appleAppSiteAssociation: ServedFile?, assetLinks: ServedFile?, tls: LoadedIdentity? = nil) {
        self.name = name
        self.appleAppSiteAssociation = appleAppSiteAssociation
        self.assetLinks = assetLinks
        self.tls = tls
        self.counters = RequestCounters(host: name)
    }

    @inline(__always)
    func file(for route: Route) -> ServedFile? {
        switch route {
        case .appleAppSiteAssociation, .legacyAppleAppSiteAssociation: appleAppSiteAssociation
        case .assetLinks: assetLinks
        }
    }

    func file(_ kind: ServedFile.Kind) -> ServedFile? {
        switch kind {
        case .appleAppSiteAssociation: appleAppSiteAssociation
        case .assetLinks: assetLinks
        }
    }
}

/// `aasa_requests_total{host,status}` counters for one host label.
struct RequestCounters: Sendable {
    private let counters: [Counter]

    init(host: String) {
        counters = EncodedResponse.Status.allCases.map {
            Counter(label: "aasa_requests_total", dimensions: [("host", host), ("status", String($0.rawValue))])
        }
    }

    @inline(__always)
    func increment(_ status: EncodedResponse.Status) {
        // allCases order is declaration order; index by position.
        counters[Self.index(of: status)].increment()
    }

    @inline(__always)
    private static func index(of status: EncodedResponse.Status) -> Int {
        switch status {
        case .ok: 0
        case .notModified: 1
        case .badRequest: 2
        case .notFound: 3
        case .methodNotAllowed: 4
        case .requestHeaderFieldsTooLarge: 5
        case .serviceUnavailable: 6
        }
    }
}
