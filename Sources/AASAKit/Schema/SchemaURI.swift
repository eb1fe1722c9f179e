/// RFC 3986 reference resolution, just enough for `$id`, `$anchor` and `$ref`.
///
/// Foundation's `URL(string:relativeTo:)` is not used because it mishandles
/// non-hierarchical bases such as `urn:uuid:…`, which JSON Schema allows as
/// `$id`, and because its behaviour differs between Darwin and Linux.
enum SchemaURI {
    /// The base of a document that declares no `$id`. The scheme is made up
    /// so that it can never collide with a real resource.
    static let defaultBase = "urn:swift-aasa:schema"

    /// Resolves `reference` against the absolute URI `base` (RFC 3986 §5.2.2).
    static func resolve(_ reference: String, against base: String) -> String {
        let r = Parts(reference)
        let b = Parts(base)
        var t = Parts()
        if r.scheme != nil {
            t = r
            t.path = removeDotSegments(r.path)
        } else {
            if r.authority != nil {
                t.authority = r.authority
                t.path = removeDotSegments(r.path)
                t.query = r.query
            } else {
                if r.path.isEmpty {
                    t.path = b.path
                    t.query = r.query ?? b.query
                } else if r.path.hasPrefix("/") {
                    t.path = removeDotSegments(r.path)
                    t.query = r.query
                } else {
                    t.path = removeDotSegments(merge(base: b, path: r.path))
                    t.query = r.query
                }
                t.authority = b.authority
            }
            t.scheme = b.scheme
        }
        t.fragment = r.fragment
        return t.text
    }

    /// Splits an absolute URI into the resource (everything before `#`) and
    /// the fragment, if any.
    static func split(_ uri: String) -> (resource: String, fragment: String?) {
        guard let hash = uri.firstIndex(of: "#") else { return (uri, nil) }
        return (String(uri[..<hash]), String(uri[uri.index(after: hash)...]))
    }

    private static func merge(base: Parts, path: String) -> String {
        if base.authority != nil, base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return base.path[...slash] + path
    }

    /// RFC 3986 §5.2.4.
    private static func removeDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                _ = output.popLast()
            } else if input == "/.." {
                input = "/"
                _ = output.popLast()
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }

    private struct Parts {
        var scheme: String?
        var authority: String?
        var path = ""
        var query: String?
        var fragment: String?

        init() {}

        init(_ text: String) {
            var rest = Substring(text)
            if let hash = rest.firstIndex(of: "#") {
                fragment = String(rest[rest.index(after: hash)...])
                rest = rest[..<hash]
            }
            if let mark = rest.firstIndex(of: "?") {
                query = String(rest[rest.index(after: mark)...])
                rest = rest[..<mark]
            }
            if let colon = rest.firstIndex(of: ":"), Self.isScheme(rest[..<colon]) {
                scheme = String(rest[..<colon])
                rest = rest[rest.index(after: colon)...]
            }
            if rest.hasPrefix("//") {
                rest = rest.dropFirst(2)
                let end = rest.firstIndex(of: "/") ?? rest.endIndex
                authority = String(rest[..<end])
                rest = rest[end...]
            }
            path = String(rest)
        }

        var text: String {
            var text = ""
            if let scheme { text += scheme + ":" }
            if let authority { text += "//" + authority }
            text += path
            if let query { text += "?" + query }
            if let fragment { text += "#" + fragment }
            return text
        }

        private static func isScheme(_ text: Substring) -> Bool {
            guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else {
                return false
            }
            return text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "+-.".unicodeScalars.contains(scalar))
            }
        }
    }
}
