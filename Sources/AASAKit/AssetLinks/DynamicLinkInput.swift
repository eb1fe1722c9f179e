/// The parts of a URL that dynamic rules look at, as Android hands them to
/// its pattern matcher: percent-decoded, never case-folded, with no path
/// normalisation beyond what the URL parser already did.
///
/// The URL is an ``AASAURL``, parsed the way a browser passes it on (dot
/// segments resolved, non-ASCII escaped), because that is how a tapped link
/// reaches Android. Then: the path (`/` when the URL has none, as a browser
/// sends it) and the fragment are decoded whole; the query is split on `&`
/// first, then each `name=value` is split at its first `=` and both halves
/// decoded, so an encoded `%26` or `%3D` stays inside its value.
struct DynamicLinkInput {
    struct Parameter: Equatable {
        var name: String
        /// `nil` for a bare `name` without `=`.
        var value: String?
    }

    var path: String
    /// `nil` when the URL has no `#`; `""` for a bare `#`.
    var fragment: String?
    var parameters: [Parameter]

    init(url: AASAURL) {
        path = url.path.isEmpty ? "/" : Self.decode(url.path[...])
        fragment = url.fragment.map { Self.decode($0[...]) }
        parameters = (url.query ?? "").split(separator: "&").map { item in
            guard let equals = item.firstIndex(of: "=") else { return Parameter(name: Self.decode(item), value: nil) }
            return Parameter(
                name: Self.decode(item[..<equals]),
                value: Self.decode(item[item.index(after: equals)...])
            )
        }
    }

    /// Decodes every valid `%XX`; a malformed escape stays as written and
    /// bytes that are not UTF-8 become U+FFFD, as Android's `Uri.decode` does.
    static func decode(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        let input = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count)
        var offset = 0
        while offset < input.count {
            if input[offset] == UInt8(ascii: "%"), offset + 2 < input.count,
                let high = hexValue(input[offset + 1]), let low = hexValue(input[offset + 2])
            {
                bytes.append(high << 4 | low)
                offset += 3
            } else {
                bytes.append(input[offset])
                offset += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
