/// A URL as it reaches the system: parsed and percent-encoded the way a
/// browser's URL parser encodes what a human typed.
///
/// Follows the WHATWG URL standard where it matters for matching: tabs and
/// newlines are removed; `\` counts as `/`; user info is dropped; the host is
/// lowercased (no IDNA: a non-ASCII host stays as typed, lowercased); a
/// default port is dropped; `.`/`..` path segments are resolved; each
/// component is percent-encoded with its WHATWG set (non-ASCII as UTF-8
/// `%XX`, uppercase hex); existing escapes and `+` are kept as they are.
public struct AASAURL: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`, lowercased.
    public var scheme: String
    /// Lowercased; brackets kept for IPv6 literals.
    public var host: String
    /// The port when one is written and it is not the scheme's default.
    public var port: Int?
    /// Encoded; `""` when the URL has no path.
    public var path: String
    /// Encoded, without `?`; `nil` when there is no `?`.
    public var query: String?
    /// Encoded, without `#`; `nil` when there is no `#`.
    public var fragment: String?

    public init(_ string: String) throws(AASAURLError) {
        self = try URLByteParser.parse(string)
    }

    /// A URL from parts already parsed and encoded.
    init(scheme: String, host: String, port: Int? = nil, path: String, query: String? = nil, fragment: String? = nil) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// The encoded URL.
    public var description: String {
        var text = "\(scheme)://\(host)"
        if let port { text += ":\(port)" }
        text += path
        if let query { text += "?\(query)" }
        if let fragment { text += "#\(fragment)" }
        return text
    }

    /// Resolves `.` and `..` segments (also spelled `%2e`), as browsers do
    /// before a URL is ever handed to the system.
    static func removingDotSegments(_ path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var output: [Substring] = []
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment.lowercased() {
            case "..", ".%2e", "%2e.", "%2e%2e":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            case ".", "%2e":
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        return "/" + output.joined(separator: "/")
    }
}

/// Why a string is not a URL the matcher can evaluate.
public struct AASAURLError: Error, Sendable, Hashable, CustomStringConvertible {
    enum Reason: Sendable, Hashable {
        case notAURL(String)
        case unsupportedScheme(String)
        case invalidHost(String)
        case invalidPort(String)
    }

    let reason: Reason

    init(_ reason: Reason) {
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .notAURL(let input): "not a URL: \(input)"
        case .unsupportedScheme(let scheme): "unsupported scheme \(scheme)"
        case .invalidHost(let host): "invalid host \(host)"
        case .invalidPort(let port): "invalid port \(port)"
        }
    }
}
