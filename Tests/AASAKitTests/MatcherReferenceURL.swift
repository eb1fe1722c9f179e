import Foundation

@testable import AASAKit

/// The URL parser as first written (over `Character`s, with Foundation's
/// `replacingOccurrences`), kept as the reference that
/// ``URLByteParser`` must agree with on random input; also a parsed URL's
/// components each as a string of its own, as ``AASAURL`` once kept them.
struct ReferenceURL: Equatable {
    var scheme: String
    var host: String
    var port: Int?
    var path: String
    var query: String?
    var fragment: String?

    /// The components `url` hands out.
    init(components url: AASAURL) {
        (scheme, host, port) = (url.scheme, url.host, url.port)
        (path, query, fragment) = (url.path, url.query, url.fragment)
    }

    // Each component by its UTF-8: a parser giving canonically equal but
    // other scalars (NFC for NFD) disagrees, as the matcher would.
    static func == (lhs: ReferenceURL, rhs: ReferenceURL) -> Bool {
        func same(_ left: String?, _ right: String?) -> Bool {
            left.map { Array($0.utf8) } == right.map { Array($0.utf8) }
        }
        return lhs.port == rhs.port && same(lhs.scheme, rhs.scheme) && same(lhs.host, rhs.host)
            && same(lhs.path, rhs.path) && same(lhs.query, rhs.query) && same(lhs.fragment, rhs.fragment)
    }

    init(_ string: String) throws(AASAURLError) {
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
            fragment = Self.encodeReference(rest[rest.index(after: hash)...], escaping: Self.fragmentSet)
            rest = rest[..<hash]
        }
        var query: String?
        if let mark = rest.firstIndex(of: "?") {
            query = Self.encodeReference(rest[rest.index(after: mark)...], escaping: Self.querySet)
            rest = rest[..<mark]
        }
        let rawPath = rest.replacingOccurrences(of: "\\", with: "/")
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = AASAURL.removingDotSegments(Self.encodeReference(Substring(rawPath), escaping: Self.pathSet))
        self.query = query
        self.fragment = fragment
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
    static func encodeReference(_ text: Substring, escaping set: Set<Unicode.Scalar>) -> String {
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
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
