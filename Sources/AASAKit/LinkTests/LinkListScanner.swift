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
        // Each entry made where it lies: appending one made it, copied it
        // into the array (a retain of the source) and released the
        // original, 100,000 times for a long list.
        let count = lists.reduce(0) { $0 + ($1?.count ?? 0) }
        var source = LinkListSource(bytes: bytes, file: file)
        return [LinkExpectations.Entry](unsafeUninitializedCapacity: count) { buffer, initialized in
            for (list, key) in zip(lists, Self.keys) {
                guard let spans = list else { continue }
                for (index, span) in spans.enumerated() {
                    // A source of its own (the same bytes) per run of
                    // entries: the entries are parsed, checked and rendered
                    // in contiguous chunks across the cores, each URL
                    // retaining its source, and one object for all of them
                    // made both cores write the same reference count.
                    if initialized > 0, initialized % Self.entriesPerSource == 0 {
                        source = LinkListSource(bytes: bytes, file: file)
                    }
                    (buffer.baseAddress! + initialized).initialize(
                        to: .init(
                            written: .bytes(source, start: span.start, count: span.count),
                            expectation: key.expectation,
                            list: key.list,
                            // Fits: there are fewer URLs than bytes.
                            index: Int32(index)
                        )
                    )
                    initialized += 1
                }
            }
        }
    }

    /// The entries that share one ``LinkListSource``: far fewer than a
    /// chunk of ``ParallelBatch`` (at least 2,048), so two chunks share at
    /// most the one at their boundary, and enough that the sources cost
    /// nothing.
    static let entriesPerSource = 512

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

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each byte of `word` that is `"`, `\` or below
    /// 0x20, and maybe of bytes above one: a test borrows only from a
    /// byte that matched, so the lowest flag is always a match.
    static func stops(_ word: UInt64) -> UInt64 {
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let zeroQuote = (quote &- ones) & ~quote
        let zeroBackslash = (backslash &- ones) & ~backslash
        let control = (word &- ones &* 0x20) & ~word
        return (zeroQuote | zeroBackslash | control) & highBits
    }

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
                var ascii = true
                guard let key = stringBytes(ascii: &ascii),
                    let which = LinkListScanner.keyBytes.firstIndex(where: key.elementsEqual)
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
                var ascii = true
                guard let raw = stringBytes(ascii: &ascii), !raw.isEmpty else { return nil }
                guard ascii || UTF8Text.decode(raw) != nil else { return nil }
                spans.append(Span(start: Int32(raw.startIndex), count: Int32(raw.count)))
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "]")) else { return nil }
            return spans
        }

        /// The raw bytes of a string without escapes or control characters;
        /// `ascii` is cleared when one of them is not ASCII.
        ///
        /// Eight bytes are read at a time until a word holds the closing
        /// quote, a backslash or a control character; the first of them is
        /// found from the word's flags, not byte by byte. The scan is the
        /// longer half of a run's start, and a byte loop spent three
        /// compares on every byte of a 6.6 MB list.
        mutating func stringBytes(ascii: inout Bool) -> UnsafeBufferPointer<UInt8>.SubSequence? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            var seen: UInt64 = 0
            if let base = bytes.baseAddress {
                while index + 8 <= bytes.count {
                    // The first byte in memory is the word's lowest.
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                    let stops = LinkListScanner.stops(word)
                    guard stops != 0 else {
                        seen |= word
                        index += 8
                        continue
                    }
                    let before = stops.trailingZeroBitCount / 8
                    seen |= word & ~(UInt64.max << (before * 8))
                    index += before
                    return closed(start: start, seen: seen, ascii: &ascii)
                }
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                seen |= UInt64(byte)
                index += 1
            }
            return closed(start: start, seen: seen, ascii: &ascii)
        }

        /// The string from `start` when the byte at `index` is its closing
        /// quote (a backslash, a control character or the end is not).
        private mutating func closed(
            start: Int,
            seen: UInt64,
            ascii: inout Bool
        ) -> UnsafeBufferPointer<UInt8>.SubSequence? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            if seen & LinkListScanner.highBits != 0 { ascii = false }
            return bytes[start..<index - 1]
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
