/// The `site` of a `web` target: an origin and nothing else. `http` or
/// `https` (any case), a host name (a trailing dot is allowed and means the
/// same host), an optional port 1–65535. Google rejects user info, any path
/// (even `/`), a query, a fragment and a missing scheme.
public struct WebSiteOrigin: Sendable, Hashable {
    /// `http` or `https`, lowercased.
    public var scheme: String
    /// Lowercased, without a trailing dot.
    public var host: String
    /// The port when one is written.
    public var port: Int?

    /// Reads `site`; `nil` when Google would reject it.
    public init?(_ site: String) {
        guard case .origin(let origin) = Self.read(site) else { return nil }
        self = origin
    }

    private init(scheme: String, host: String, port: Int?) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// Whether this origin is the one `host` serves (the file's own host):
    /// same host; a port or plain http still names the same site to people.
    public func isSite(ofHost host: String) -> Bool {
        self.host == Self.canonicalHost(host)
    }

    /// Why Google rejects `site`, and the origin probably meant.
    static func problem(with site: String) -> SpellingProblem {
        switch read(site) {
        case .origin:
            return SpellingProblem(reason: "the site is valid")
        case .invalid(let reason, let suggestion):
            return SpellingProblem(reason: reason, suggestion: suggestion.flatMap { $0 == site ? nil : $0 })
        }
    }

    private enum Reading {
        case origin(WebSiteOrigin)
        case invalid(String, suggestion: String?)
    }

    private static func read(_ site: String) -> Reading {
        if site.isEmpty { return .invalid("the site is empty", suggestion: nil) }
        if let space = site.unicodeScalars.first(where: { $0.properties.isWhitespace || $0.value < 0x20 }) {
            return .invalid(
                "the site contains \(SpellingProblem.name(of: space))",
                suggestion: WebSiteOrigin(site.trimmingWhitespace)?.description
            )
        }
        guard let separator = site.range(of: "://") else {
            let guess = WebSiteOrigin("https://" + site)?.description
            return .invalid(
                "the site has no scheme; write it as an origin such as \"https://example.com\"",
                suggestion: guess
            )
        }
        let scheme = site[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            return .invalid("the scheme \(quoted(scheme)) is not http or https", suggestion: nil)
        }
        let rest = site[separator.upperBound...]
        let authorityEnd = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if authority.contains("@") {
            return .invalid("the site has user info (\"…@\"); a site is an origin only", suggestion: nil)
        }
        let (hostText, portText) = splitPort(authority)
        guard let host = validHost(hostText) else {
            return .invalid(hostProblem(hostText), suggestion: nil)
        }
        var port: Int?
        if let portText {
            guard let number = validPort(portText) else {
                return .invalid("\(quoted(String(portText))) is not a port (1 to 65535)", suggestion: nil)
            }
            port = number
        }
        let origin = WebSiteOrigin(scheme: scheme, host: host, port: port)
        let trailing = rest[authorityEnd...]
        guard let first = trailing.first else { return .origin(origin) }
        let reason: String
        switch first {
        case "?": reason = "the site has a query; a site is an origin only"
        case "#": reason = "the site has a fragment; a site is an origin only"
        default:
            reason =
                trailing == "/"
                ? "the site ends with \"/\", which Google reads as a path; a site is an origin only"
                : "the site has a path (\(quoted(String(trailing.prefix { $0 != "?" && $0 != "#" })))); a site is an origin only"
        }
        let written = site[..<separator.upperBound] + authority
        return .invalid(reason, suggestion: String(written))
    }

    private static func splitPort(_ authority: Substring) -> (Substring, Substring?) {
        guard let colon = authority.lastIndex(of: ":") else { return (authority, nil) }
        return (authority[..<colon], authority[authority.index(after: colon)...])
    }

    /// Dot-separated labels of letters, digits and `-` (not at either end),
    /// at most 63 characters each; one trailing dot allowed.
    private static func validHost(_ text: Substring) -> String? {
        let name = text.hasSuffix(".") ? text.dropLast() : text
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        let valid = labels.allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && label.first != "-" && label.last != "-"
                && label.unicodeScalars.allSatisfy(isHostScalar)
        }
        return valid ? name.lowercased() : nil
    }

    private static func hostProblem(_ text: Substring) -> String {
        if text.isEmpty { return "the site has no host" }
        if text.hasPrefix("[") { return "IPv6 literals are not accepted as a site host" }
        if let bad = text.unicodeScalars.first(where: { !isHostScalar($0) && $0 != "." }) {
            return "the host \(quoted(String(text))) contains \(SpellingProblem.name(of: bad))"
        }
        return "the host \(quoted(String(text))) is not a host name (empty label, a label over 63 characters, "
            + "or one starting or ending with \"-\")"
    }

    private static func isHostScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
    }

    /// 1–65535, written without a leading zero.
    private static func validPort(_ text: Substring) -> Int? {
        guard let first = text.first, first != "0", text.count <= 5,
            text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) },
            let number = Int(text), number <= 65_535
        else { return nil }
        return number
    }

    /// Lowercased, without a trailing dot or a port.
    static func canonicalHost(_ host: String) -> String {
        var name = host.lowercased()
        if let colon = name.lastIndex(of: ":"), !name.hasSuffix("]") { name = String(name[..<colon]) }
        return name.hasSuffix(".") ? String(name.dropLast()) : name
    }
}

extension WebSiteOrigin: CustomStringConvertible {
    /// `https://example.com:8443`.
    public var description: String {
        "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
    }
}
