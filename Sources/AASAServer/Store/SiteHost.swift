import AASAKit

/// A host the origin serves: its files and the counters its requests feed.
/// Aliases share the instance of their target.
public final class SiteHost: Sendable {
    /// The directory's host name (`example.com` or `*.example.com`).
    public let name: String
    public let appleAppSiteAssociation: ServedFile?
    public let assetLinks: ServedFile?
    /// The certificate for this host (`tls/cert.pem` + `tls/key.pem`), chosen by SNI.
    public var tls: LoadedIdentity? { identity?.loaded }
    /// Boxed: a `LoadedIdentity` is ~100 bytes inline (two file stamps), and
    /// nearly every host has none; at 10,000 hosts the empty space was a
    /// megabyte. Read only at a TLS handshake and a reload, never per request.
    private let identity: IdentityBox?
    /// Request counts by status, looked up at load so the request path only
    /// increments.
    let counts: RequestCounts

    init(
        name: String,
        appleAppSiteAssociation: ServedFile?,
        assetLinks: ServedFile?,
        tls: LoadedIdentity? = nil,
        counts: RequestCounts
    ) {
        self.name = name
        self.appleAppSiteAssociation = appleAppSiteAssociation
        self.assetLinks = assetLinks
        self.identity = tls.map(IdentityBox.init)
        self.counts = counts
    }

    @inline(__always)
    func file(for route: Route) -> ServedFile? {
        file(route.siteRoute.file)
    }

    /// Whether `other` answers every request exactly as this host does: the
    /// same name, the same bytes for each file, the same certificate.
    func serves(sameAs other: SiteHost) -> Bool {
        self === other
            || (name == other.name
                && appleAppSiteAssociation?.digest == other.appleAppSiteAssociation?.digest
                && assetLinks?.digest == other.assetLinks?.digest
                && tls?.identity.chain == other.tls?.identity.chain)
    }

    /// ``serves(sameAs:)`` for hosts that may be absent.
    static func serve(_ one: SiteHost?, sameAs other: SiteHost?) -> Bool {
        switch (one, other) {
        case (nil, nil): true
        case (let one?, let other?): one.serves(sameAs: other)
        default: false
        }
    }

    func file(_ kind: ServedFile.Kind) -> ServedFile? {
        switch kind {
        case .appleAppSiteAssociation: appleAppSiteAssociation
        case .assetLinks: assetLinks
        }
    }
}

/// A host's ``LoadedIdentity`` out of line (see ``SiteHost``).
private final class IdentityBox: Sendable {
    let loaded: LoadedIdentity

    init(_ loaded: LoadedIdentity) {
        self.loaded = loaded
    }
}
