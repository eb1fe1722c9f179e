import Foundation

/// One GET: the URL as Apple's systems would request it, and optionally
/// another place to open the connection.
///
/// The URL's host is the name the request is *for*: it is sent as `Host`,
/// as the TLS server name (SNI), and the certificate must name it. Where
/// the TCP connection goes is a separate choice (`--base-url`, `--resolve`):
/// checking `example.com` on a staging server still checks that the staging
/// server would serve `example.com` correctly, certificate included.
public struct FetchRequest: Sendable, Hashable {
    /// `https://example.com/.well-known/apple-app-site-association`.
    public var url: String
    /// Connect here instead of resolving the URL's host: an IP address or a
    /// host name. The port is the URL's.
    public var connectTo: String?
    /// The `Host` header, when it must differ from the URL's authority
    /// (the domain without the port of a stand-in server).
    public var hostHeader: String?

    public init(_ url: String, connectTo: String? = nil, hostHeader: String? = nil) {
        self.url = url
        self.connectTo = connectTo
        self.hostHeader = hostHeader
    }

    /// The parts of `url` a fetch needs, `nil` unless it is an absolute http(s) URL.
    var parsed: (scheme: String, host: String, port: Int)? {
        guard let url = URL(string: url), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            var host = url.host, !host.isEmpty
        else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (scheme, host.lowercased(), url.port ?? (scheme == "https" ? 443 : 80))
    }
}
