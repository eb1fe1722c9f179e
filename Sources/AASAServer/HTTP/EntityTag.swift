/// An entity tag (RFC 9110 §8.8.3): an opaque validator, strong or weak.
///
/// Comparison with the tags of a request's `If-None-Match` or `If-Match`
/// walks the field's bytes in place: the request path allocates nothing.
struct EntityTag: Sendable, Hashable {
    /// The tag between the quotes.
    let opaque: String
    let isWeak: Bool

    /// `"opaque"` or `W/"opaque"`, as sent in `ETag`.
    var headerValue: String { (isWeak ? "W/" : "") + "\"" + opaque + "\"" }

    /// How two tags are compared (RFC 9110 §8.8.3.2).
    enum Comparison {
        /// Both strong and equal: what `If-Match` uses.
        case strong
        /// Equal opaque tags, either may be weak: what `If-None-Match` uses.
        case weak
    }

    /// Whether a conditional field value (`"*"` or a list of entity tags)
    /// names this tag under `comparison`. A malformed value names nothing:
    /// an unparsable validator must never turn into a 304.
    func isNamed(by field: some StringProtocol, comparison: Comparison) -> Bool {
        let bytes = field.utf8
        var index = bytes.startIndex
        let end = bytes.endIndex

        func skipSpaces() {
            while index < end, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
                index = bytes.index(after: index)
            }
        }

        skipSpaces()
        if index < end, bytes[index] == UInt8(ascii: "*") {
            // `*` is only valid as the whole value; it names any current
            // representation, and a served file always has one.
            index = bytes.index(after: index)
            skipSpaces()
            return index == end
        }
        var named = false
        while true {
            // Empty list elements (`, ,`) are allowed and skipped (RFC 9110 §5.6.1).
            while index < end,
                bytes[index] == UInt8(ascii: ",") || bytes[index] == UInt8(ascii: " ")
                    || bytes[index] == UInt8(ascii: "\t")
            {
                index = bytes.index(after: index)
            }
            if index == end { return named }
            // weak = %s"W/", case-sensitive.
            var candidateIsWeak = false
            if bytes[index] == UInt8(ascii: "W") {
                index = bytes.index(after: index)
                guard index < end, bytes[index] == UInt8(ascii: "/") else { return false }
                index = bytes.index(after: index)
                candidateIsWeak = true
            }
            guard index < end, bytes[index] == UInt8(ascii: "\"") else { return false }
            let opaqueStart = bytes.index(after: index)
            var opaqueEnd = opaqueStart
            // etagc = %x21 / %x23-7E / obs-text: anything but controls, space and DQUOTE.
            while opaqueEnd < end, Self.isTagCharacter(bytes[opaqueEnd]) {
                opaqueEnd = bytes.index(after: opaqueEnd)
            }
            guard opaqueEnd < end, bytes[opaqueEnd] == UInt8(ascii: "\"") else { return false }
            index = bytes.index(after: opaqueEnd)
            if !named, bytes[opaqueStart..<opaqueEnd].elementsEqual(opaque.utf8) {
                switch comparison {
                case .weak: named = true
                case .strong: named = !candidateIsWeak && !isWeak
                }
            }
            skipSpaces()
            guard index == end || bytes[index] == UInt8(ascii: ",") else { return false }
        }
    }

    @inline(__always)
    private static func isTagCharacter(_ byte: UInt8) -> Bool {
        byte == 0x21 || (byte >= 0x23 && byte != 0x7F)
    }
}
