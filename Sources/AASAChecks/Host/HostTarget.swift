import AASAKit
import Foundation

/// The host whose files are checked, and where to connect for them.
///
/// The URLs fetched always name the host (`https://example.com/…`), so the
/// `Host` header, the TLS server name and the certificate check are the
/// host's. A `--base-url` only moves the connection: its address is
/// connected to, and its scheme, port and path prefix are used, as if DNS
/// pointed the host at that server.
public struct HostTarget: Sendable, Hashable {
    /// The host the files are for, lowercased.
    public var host: String
    /// `https` or `http`.
    public var scheme: String
    /// The port, when not the scheme's default.
    public var port: Int?
    /// A path prefix from the base URL, without a trailing `/` (usually empty).
    public var pathPrefix: String
    /// Where to connect instead of resolving `host` (the base URL's host,
    /// or a `--resolve` address).
    public var connectTo: String?
    /// Whether a `--base-url` chose the server, scheme included: plain HTTP
    /// then means a local test server, not a production host.
    public var viaBaseURL: Bool

    /// Reads a command-line argument: a bare host (`example.com`) or a URL
    /// (`https://example.com:8443`, whose path is ignored), and an optional
    /// `--base-url` to connect to instead.
    public init(_ argument: String, baseURL: String? = nil) throws(HostTargetError) {
        var text = argument
        if !argument.contains("://") {
            // A bare host, possibly with a port; a path means a typo.
            let trimmed = argument.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            guard !trimmed.isEmpty, !trimmed.contains("/") else {
                throw HostTargetError(argument: argument, message: "not a host name")
            }
            text = "https://\(trimmed)"
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            let urlHost = url.host, !urlHost.isEmpty
        else { throw HostTargetError(argument: argument, message: "not an http(s) URL or a host name") }
        self.host = urlHost.lowercased()
        self.scheme = scheme
        self.port = url.port
        self.pathPrefix = ""
        self.connectTo = nil
        self.viaBaseURL = baseURL != nil
        if let baseURL {
            guard let base = URL(string: baseURL), let baseScheme = base.scheme?.lowercased(),
                ["http", "https"].contains(baseScheme),
                let baseHost = base.host, !baseHost.isEmpty
            else { throw HostTargetError(argument: baseURL, message: "the base URL is not an http(s) URL") }
            self.scheme = baseScheme
            self.port = base.port
            var prefix = base.path
            while prefix.hasSuffix("/") { prefix.removeLast() }
            self.pathPrefix = prefix
            self.connectTo = baseHost.lowercased()
        }
    }

    /// `scheme://host[:port]`: the origin as the requests name it.
    public var origin: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(name)\(port.map { ":\($0)" } ?? "")"
    }

    /// The URL of `path` (which starts with `/`) on this host.
    public func url(_ path: String) -> String { origin + pathPrefix + path }

    /// The request for `path`: to the host, connecting to the base URL's
    /// address when there is one, with `Host: <host>` (without the stand-in
    /// server's port, as Apple's crawler sends it).
    public func request(_ path: String) -> FetchRequest {
        FetchRequest(url(path), connectTo: connectTo, hostHeader: connectTo == nil ? nil : host)
    }

    /// The target with the first matching `--resolve` entry applied (unless
    /// a base URL already chose the address), so reports say where the
    /// connection went.
    public func connecting(per overrides: [ResolveOverride]) -> HostTarget {
        guard connectTo == nil, let override = overrides.first(where: { $0.applies(host: host, port: effectivePort) })
        else { return self }
        var target = self
        target.connectTo = override.address
        return target
    }

    /// Where the connection goes when that is not the host itself:
    /// `127.0.0.1:8443`.
    public var connectionDescription: String? {
        guard let connectTo else { return nil }
        let address = connectTo.contains(":") ? "[\(connectTo)]" : connectTo
        return "\(address):\(port ?? (isHTTPS ? 443 : 80))"
    }

    public var isHTTPS: Bool { scheme == "https" }

    /// The port connected to.
    public var effectivePort: Int { port ?? (isHTTPS ? 443 : 80) }

    /// Whether `host` is a name only this machine or network can mean
    /// (`localhost`, an IP literal, `*.local`): plain HTTP to it is a local
    /// test, not a production host served wrongly.
    public var isLocal: Bool {
        if host == "localhost" || host.hasSuffix(".localhost") || host.hasSuffix(".local") { return true }
        return host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
    }

    public static let wellKnownPath = SiteRoute.appleAppSiteAssociation.path
    public static let legacyPath = SiteRoute.legacyAppleAppSiteAssociation.path
    public static let assetLinksPath = SiteRoute.assetLinks.path
}

/// A host argument that is neither a host name nor an http(s) URL.
public struct HostTargetError: Error, Sendable, Hashable, CustomStringConvertible {
    public var argument: String
    public var message: String

    public var description: String { "\(argument): \(message)" }
}
