/// A URL's query split into `name=value` items (on `&` and the first `=`;
/// a valueless item has value `""`, `+` stays `+`), each name and value
/// decoded on its own when the rule says `percentEncoded: false`.
///
/// The items are ranges of one text: the query's own bytes when nothing is
/// decoded, else one buffer of the decoded parts, bytes while all of it is
/// ASCII and scalars otherwise (``MatchText``).
struct QueryItemList {
    /// One item's name and value, ranges of ``text``.
    struct Item {
        var name: Range<Int>
        var value: Range<Int>
    }

    private(set) var text: MatchText
    private(set) var items: [Item]

    /// Whether every value of the items named `name` matches `pattern`; a
    /// missing item reads as `""`, a repeated one must match every time.
    func valuesNamed(
        _ name: [Unicode.Scalar],
        match pattern: CompiledPattern,
        steps: inout Int,
        scratch: inout AutomatonScratch
    ) -> Bool {
        switch text {
        case .ascii(let bytes):
            bytes.withUnsafeBufferPointer {
                valuesNamed(name, in: $0, match: pattern, steps: &steps, scratch: &scratch)
            }
        case .scalars(let scalars):
            scalars.withUnsafeBufferPointer {
                valuesNamed(name, in: $0, match: pattern, steps: &steps, scratch: &scratch)
            }
        }
    }

    private func valuesNamed<Unit: MatchUnit>(
        _ name: [Unicode.Scalar],
        in text: UnsafeBufferPointer<Unit>,
        match pattern: CompiledPattern,
        steps: inout Int,
        scratch: inout AutomatonScratch
    ) -> Bool {
        var found = false
        for item in items where Self.equal(text[item.name], name) {
            found = true
            let value = UnsafeBufferPointer(rebasing: text[item.value])
            guard pattern.matches(value, steps: &steps, scratch: &scratch) else { return false }
        }
        return found
            || pattern.matches(UnsafeBufferPointer<Unit>(start: nil, count: 0), steps: &steps, scratch: &scratch)
    }

    private static func equal<Unit: MatchUnit>(
        _ units: Slice<UnsafeBufferPointer<Unit>>,
        _ name: [Unicode.Scalar]
    ) -> Bool {
        guard units.count == name.count else { return false }
        return zip(units, name).allSatisfy { $0.scalar == $1 }
    }

    /// Both spellings' lists of one URL, computed on first use into buffers
    /// kept from one URL to the next.
    struct Cache {
        private var encoded = Spelled()
        private var decoded = Spelled()

        mutating func reset() {
            encoded.text = nil
            decoded.text = nil
        }

        mutating func list(decoded isDecoded: Bool, raw: [UInt8], isASCII: Bool) -> QueryItemList? {
            isDecoded
                ? decoded.list(raw: raw, isASCII: isASCII, decoding: true)
                : encoded.list(raw: raw, isASCII: isASCII, decoding: false)
        }
    }

    /// The items of one spelling and the buffers of their text.
    private struct Spelled {
        var items: [Item] = []
        var bytes: [UInt8] = []
        var scalars: [Unicode.Scalar] = []
        /// `nil` until computed; `.some(nil)` when an item cannot be decoded.
        var text: MatchText??

        mutating func list(raw: [UInt8], isASCII: Bool, decoding: Bool) -> QueryItemList? {
            if text == nil { text = .some(split(raw, isASCII: isASCII, decoding: decoding)) }
            guard case .some(.some(let text)) = text else { return nil }
            return QueryItemList(text: text, items: items)
        }

        private mutating func split(_ raw: [UInt8], isASCII: Bool, decoding: Bool) -> MatchText? {
            items.removeAll(keepingCapacity: true)
            guard !raw.isEmpty else { return .ascii([]) }
            guard isASCII else { return splitScalars(raw, decoding: decoding) }
            bytes.removeAll(keepingCapacity: true)
            var start = 0
            for end in 0...raw.count where end == raw.count || raw[end] == UInt8(ascii: "&") {
                let equals = raw[start..<end].firstIndex(of: UInt8(ascii: "="))
                let name = start..<(equals ?? end)
                let value = equals.map { ($0 + 1)..<end } ?? end..<end
                start = end + 1
                guard decoding else {
                    items.append(Item(name: name, value: value))
                    continue
                }
                let nameStart = bytes.count
                guard PercentEncoding.decode(raw[name], appendingTo: &bytes) else { return nil }
                let valueStart = bytes.count
                guard PercentEncoding.decode(raw[value], appendingTo: &bytes) else { return nil }
                items.append(Item(name: nameStart..<valueStart, value: valueStart..<bytes.count))
            }
            guard decoding else { return .ascii(raw) }
            if bytes.allSatisfy({ $0 < 0x80 }) { return .ascii(bytes) }
            // Each name and value must be UTF-8 on its own, as scalars.
            scalars.removeAll(keepingCapacity: true)
            for index in items.indices {
                guard let name = UTF8Text.decode(bytes[items[index].name]),
                    let value = UTF8Text.decode(bytes[items[index].value])
                else { return nil }
                items[index] = appendScalars(name: name, value: value)
            }
            return .scalars(scalars)
        }

        /// A query that is not ASCII (only a URL made from parts has one:
        /// the parser encodes every other byte) split as a `String`.
        private mutating func splitScalars(_ raw: [UInt8], decoding: Bool) -> MatchText? {
            scalars.removeAll(keepingCapacity: true)
            for item in String(decoding: raw, as: UTF8.self).split(separator: "&", omittingEmptySubsequences: false) {
                let equals = item.firstIndex(of: "=")
                let name = equals.map { item[..<$0] } ?? item
                let value = equals.map { item[item.index(after: $0)...] } ?? ""
                guard let name = decoding ? PercentEncoding.decode(name) : String(name),
                    let value = decoding ? PercentEncoding.decode(value) : String(value)
                else { return nil }
                items.append(appendScalars(name: name, value: value))
            }
            return .scalars(scalars)
        }

        private mutating func appendScalars(name: String, value: String) -> Item {
            let nameStart = scalars.count
            scalars += name.unicodeScalars
            let valueStart = scalars.count
            scalars += value.unicodeScalars
            return Item(name: nameStart..<valueStart, value: valueStart..<scalars.count)
        }
    }
}
