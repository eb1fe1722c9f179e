/// Reads the common shape of a links file without building a JSON tree:
/// an object of `deep_linkable_urls` and/or `non_deep_linkable_urls`, each
/// a non-empty array of non-empty strings.
///
/// A 100,000-URL list cost a tree of 100,000 values, a schema walk over
/// them and a second walk to make the entries; this scanner goes over the
/// bytes once. It accepts only a document the full path accepts too, and
/// gives up (`nil`) on anything else: another key, a key written twice, an
/// object entry, an escape in a string, an empty list or string, a byte
/// order mark, bytes that are not UTF-8, anything after the object. The full
/// parser and the schema then read the file, so every error keeps its file,
/// JSON path, rule and suggestion.
enum LinkListScanner {
    /// The entries of `bytes` in the order the full reader lists them
    /// (`deep_linkable_urls` first, then `non_deep_linkable_urls`, whatever
    /// the order written); `nil` when the file is not exactly that shape.
    static func entries(of bytes: [UInt8], file: String?) -> [LinkExpectations.Entry]? {
        // Spans are kept as 32-bit offsets; a larger file takes the full path.
        guard bytes.count <= Int32.max else { return nil }
        var lists: [[Span]?] = [nil, nil]
        let scanned: Bool = bytes.withUnsafeBufferPointer { buffer in
            var cursor = Cursor(bytes: buffer)
            return cursor.document(into: &lists)
        }
        guard scanned else { return nil }
        var entries: [LinkExpectations.Entry] = []
        entries.reserveCapacity(lists.reduce(0) { $0 + ($1?.count ?? 0) })
        for (list, key) in zip(lists, Self.keys) {
            guard let spans = list else { continue }
            for (index, span) in spans.enumerated() {
                entries.append(
                    .init(
                        written: .bytes(bytes, start: span.start, count: span.count),
                        expectation: key.expectation,
                        place: .listed(key.list, index),
                        file: file
                    )
                )
            }
        }
        return entries
    }

    /// Where a URL's bytes lie in the file.
    private struct Span {
        var start: Int32
        var count: Int32
    }

    /// The keys accepted, in the order the entries are listed.
    private static let keys: [(list: LinkListKey, expectation: LinkExpectations.Expectation)] = [
        (.deepLinkable, .matched),
        (.nonDeepLinkable, .notMatched),
    ]
    private static let keyBytes = keys.map { Array($0.list.rawValue.utf8) }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// `{ "key": [ "url", … ], … }` and nothing after it.
        mutating func document(into lists: inout [[Span]?]) -> Bool {
            skipWhitespace()
            guard take(UInt8(ascii: "{")) else { return false }
            repeat {
                skipWhitespace()
                guard let key = stringBytes(), let which = LinkListScanner.keyBytes.firstIndex(where: key.elementsEqual)
                else { return false }
                // A key written twice is an error of the full reader.
                guard lists[which] == nil else { return false }
                skipWhitespace()
                guard take(UInt8(ascii: ":")), let urls = list() else { return false }
                lists[which] = urls
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return false }
            skipWhitespace()
            return index == bytes.count
        }

        /// `[ "url", … ]`, at least one, each non-empty and valid UTF-8.
        mutating func list() -> [Span]? {
            skipWhitespace()
            guard take(UInt8(ascii: "[")) else { return nil }
            var spans: [Span] = []
            repeat {
                skipWhitespace()
                guard let raw = stringBytes(), !raw.isEmpty else { return nil }
                guard raw.allSatisfy({ $0 < 0x80 }) || UTF8Text.decode(raw) != nil else { return nil }
                spans.append(Span(start: Int32(raw.startIndex), count: Int32(raw.count)))
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "]")) else { return nil }
            return spans
        }

        /// The raw bytes of a string without escapes or control characters.
        mutating func stringBytes() -> UnsafeBufferPointer<UInt8>.SubSequence? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return bytes[start..<index - 1]
                }
                guard byte != UInt8(ascii: "\\"), byte >= 0x20 else { return nil }
                index += 1
            }
            return nil
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }
    }
}
