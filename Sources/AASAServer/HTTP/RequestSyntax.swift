// The request-line and field syntax routing reads: the absolute-form
// target, `Accept-Encoding`, and ASCII comparisons on header text.

/// `http://host:port/path?q` split into authority and origin-form path.
struct AbsoluteTarget {
    let authority: Substring
    let path: Substring

    init?(_ target: Substring) {
        guard let schemeEnd = target.range(of: "://") else { return nil }
        let scheme = target[..<schemeEnd.lowerBound]
        guard scheme.equalsASCIICaseInsensitive("http") || scheme.equalsASCIICaseInsensitive("https") else {
            return nil
        }
        let rest = target[schemeEnd.upperBound...]
        let pathStart = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<pathStart]
        // Userinfo in a request target is never legitimate.
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        self.authority = authority
        let path = rest[pathStart...]
        self.path = path.hasPrefix("/") ? path : "/" + path
    }
}

/// `Accept-Encoding` evaluation: gzip unless absent or `q=0`.
enum AcceptEncoding {
    static func allowsGzip(_ header: some StringProtocol) -> Bool {
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let coding = parts.first?.trimmingSpaces,
                coding.equalsASCIICaseInsensitive("gzip") || coding == "*"
            else { continue }
            let refused = parts.dropFirst().contains { parameter in
                let parameter = parameter.trimmingSpaces
                guard parameter.hasPrefix("q=") || parameter.hasPrefix("Q=") else { return false }
                return (Double(parameter.dropFirst(2)) ?? 1) == 0
            }
            return !refused
        }
        return false
    }
}

extension StringProtocol {
    /// Whether this equals `lowercase` (a lowercase ASCII constant) ignoring
    /// ASCII case.
    @inline(__always)
    func equalsASCIICaseInsensitive(_ lowercase: StaticString) -> Bool {
        lowercase.withUTF8Buffer { expected in
            guard utf8.count == expected.count else { return false }
            var index = 0
            for byte in utf8 {
                let wanted = expected[index]
                // Folding with 0x20 is only sound for letters.
                let isLetter = wanted >= UInt8(ascii: "a") && wanted <= UInt8(ascii: "z")
                guard byte == wanted || (isLetter && byte | 0x20 == wanted) else { return false }
                index += 1
            }
            return true
        }
    }

    var trimmingSpaces: SubSequence {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
        return self[start..<Swift.max(start, end)]
    }
}
