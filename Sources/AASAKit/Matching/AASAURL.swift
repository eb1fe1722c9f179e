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
        let input = Self.cleaned(string)
        guard let colon = input.firstIndex(of: ":"), Self.isScheme(input[..<colon]) else {
            throw AASAURLError(.notAURL(string))
        }
        let scheme = input[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw AASAURLError(.unsupportedScheme(scheme))
        }
        var rest = input[input.index(after: colon)...].drop { $0 == "/" || $0 == "\\" }
        let authorityEnd = rest.firstIndex { "/\\?#".contains($0) } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        rest = rest[authorityEnd...]

        let hostAndPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        let (host, port) = try Self.splitHostPort(hostAndPort, scheme: scheme, input: string)

        var fragment: String?
        if let hash = rest.firstIndex(of: "#") {
            fragment = Self.encode(rest[rest.index(after: hash)...], escaping: Self.fragmentSet)
            rest = rest[..<hash]
        }
        var query: String?
        if let mark = rest.firstIndex(of: "?") {
            query = Self.encode(rest[rest.index(after: mark)...], escaping: Self.querySet)
            rest = rest[..<mark]
        }
        let rawPath = rest.replacingOccurrences(of: "\\", with: "/")
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = Self.removingDotSegments(Self.encode(Substring(rawPath), escaping: Self.pathSet))
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

    // MARK: - Parsing steps

    private static func cleaned(_ string: String) -> String {
        let trimmed = string.unicodeScalars.drop { $0.value <= 0x20 }.reversed().drop { $0.value <= 0x20 }.reversed()
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: trimmed.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" })
        return String(scalars)
    }

    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCIILetter else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)
        }
    }

    private static func splitHostPort(
        _ text: Substring,
        scheme: String,
        input: String
    ) throws(AASAURLError) -> (String, Int?) {
        var host = text
        var portText: Substring = ""
        let searchFrom = text.hasPrefix("[") ? (text.firstIndex(of: "]") ?? text.endIndex) : text.startIndex
        if let colon = text[searchFrom...].firstIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty else { throw AASAURLError(.notAURL(input)) }
        let forbidden = Set(" #%/:<>?@[\\]^|".unicodeScalars)
        let isIPv6 = host.hasPrefix("[") && host.hasSuffix("]")
        if !isIPv6,
            host.unicodeScalars.contains(where: { forbidden.contains($0) || $0.value < 0x20 || $0.value == 0x7F })
        {
            throw AASAURLError(.invalidHost(String(host)))
        }
        guard !portText.isEmpty else { return (host.lowercased(), nil) }
        guard portText.allSatisfy(\.isASCIIDigit), let port = Int(portText), port <= 65_535 else {
            throw AASAURLError(.invalidPort(String(portText)))
        }
        let isDefault = (scheme == "https" && port == 443) || (scheme == "http" && port == 80)
        return (host.lowercased(), isDefault ? nil : port)
    }

    /// WHATWG's path percent-encode set (query set plus `?` `^` `` ` `` `{` `}`).
    static let pathSet = Set(" \"#<>?^`{}".unicodeScalars)
    /// WHATWG's special-query percent-encode set.
    static let querySet = Set(" \"#<>'".unicodeScalars)
    /// WHATWG's fragment percent-encode set.
    static let fragmentSet = Set(" \"<>`".unicodeScalars)

    /// Percent-encodes C0 controls, DEL, non-ASCII (as UTF-8) and `set`;
    /// everything else, `%` included, is kept.
    static func encode(_ text: Substring, escaping set: Set<Unicode.Scalar>) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.value > 0x20, scalar.value < 0x7F, !set.contains(scalar) {
                output.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 {
                    output += PercentEncoding.escape(byte)
                }
            }
        }
        return output
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

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
