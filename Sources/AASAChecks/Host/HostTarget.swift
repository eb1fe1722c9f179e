import AASAKit
import Foundation

/// Where a host's files are fetched from: `https://<host>` normally, or a
/// `--base-url` that stands in for it while the requests still carry
/// `Host: <host>`.
public struct HostTarget: Sendable, Hashable {
    /// The host the files are for (and the `Host` header sent).
    public var host: String
    /// Scheme, authority and optional path prefix, without a trailing `/`.
    public var base: String
    /// Whether `base` replaces the host's own address, so `Host` must be sent.
    public var overridesHost: Bool

    /// Reads a command-line argument: a bare host (`example.com`) or a URL
    /// (`https://example.com:8443`, whose path is ignored).
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
        let host = urlHost.lowercased()
        var base = "\(scheme)://\(urlHost)\(url.port.map { ":\($0)" } ?? "")"
        if let baseURL {
            guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
                ["http", "https"].contains(scheme),
                url.host != nil
            else { throw HostTargetError(argument: baseURL, message: "the base URL is not an http(s) URL") }
            base = baseURL
        }
        while base.hasSuffix("/") { base.removeLast() }
        self.host = host
        self.base = base
        self.overridesHost = baseURL != nil
    }

    /// `base` + `path` (which starts with `/`).
    public func url(_ path: String) -> String { base + path }

    /// The `Host` header to send, when `base` is not the host itself.
    public var hostHeader: String? { overridesHost ? host : nil }

    public var isHTTPS: Bool { base.lowercased().hasPrefix("https://") }

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
