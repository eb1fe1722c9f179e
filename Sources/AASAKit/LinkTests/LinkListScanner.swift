import Foundation

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
        // Spans are kept as 32-bit offsets; a larger file takes the full
        // path, before a second half's thread could make one.
        guard bytes.count <= Int32.max else { return nil }
        let split = bytes.count >= SecondHalf.minimumBytes && ProcessInfo.processInfo.activeProcessorCount > 1
        return entries(of: bytes, file: file, secondHalf: split ? SecondHalf(bytes: bytes) : nil)
    }

    /// ``entries(of:file:)`` with the rest of the file from a place on
    /// read by `secondHalf`'s thread (none when nil): the same entries
    /// wherever that place lies.
    static func entries(
        of bytes: [UInt8],
        file: String?,
        secondHalf: SecondHalf?
    ) -> [LinkExpectations.Entry]? {
        // The second half stops choosing its place whatever this returns.
        defer { secondHalf?.finish() }
        guard bytes.count <= Int32.max else { return nil }
        var lists: [[Span]?] = [nil, nil]
        let scanned: Bool = bytes.withUnsafeBufferPointer { buffer in
            var cursor = Cursor(bytes: buffer, secondHalf: secondHalf)
            return cursor.document(into: &lists)
        }
        guard scanned else { return nil }
        let scannedLists = lists
        let count = scannedLists.reduce(0) { $0 + ($1?.count ?? 0) }
        // With a second half, the second half of the entries too is made
        // on a thread of its own: ~2 ms (a fresh 3.2 MB array, a retain of
        // the source per entry) that one core spent while the other waited.
        // The halves meet at a run of one source, which stays whole.
        let middle = secondHalf == nil ? count : count / 2 / Self.entriesPerSource * Self.entriesPerSource
        return [LinkExpectations.Entry](unsafeUninitializedCapacity: count) { buffer, initialized in
            let base = EntriesBase(pointer: buffer.baseAddress!)
            let second =
                middle < count
                ? BackgroundValue { Self.make(middle..<count, of: scannedLists, bytes: bytes, file: file, at: base) }
                : nil
            Self.make(0..<middle, of: scannedLists, bytes: bytes, file: file, at: base)
            second?.value()
            initialized = count
        }
    }

    /// Where the entries are made; each thread writes its own range.
    private struct EntriesBase: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<LinkExpectations.Entry>
    }

    /// Makes the entries at `positions` (in the order ``entries(of:file:)``
    /// lists them) where they lie: appending one made it, copied it into
    /// the array (a retain of the source) and released the original,
    /// 100,000 times for a long list.
    private static func make(
        _ positions: Range<Int>,
        of lists: [[Span]?],
        bytes: [UInt8],
        file: String?,
        at base: EntriesBase
    ) {
        var first = 0
        var source: LinkListSource?
        for (list, key) in zip(lists, Self.keys) {
            guard let spans = list else { continue }
            defer { first += spans.count }
            let lower = max(positions.lowerBound, first)
            for position in lower..<max(min(positions.upperBound, first + spans.count), lower) {
                // A source of its own (the same bytes) per run of entries:
                // the entries are parsed, checked and rendered in
                // contiguous chunks across the cores, each URL retaining
                // its source, and one object for all of them made both
                // cores write the same reference count.
                if source == nil || position % Self.entriesPerSource == 0 {
                    source = LinkListSource(bytes: bytes, file: file)
                }
                let span = spans[position - first]
                (base.pointer + position).initialize(
                    to: .init(
                        written: .bytes(source!, start: span.start, count: span.count),
                        expectation: key.expectation,
                        list: key.list,
                        // Fits: there are fewer URLs than bytes.
                        index: Int32(position - first)
                    )
                )
            }
        }
    }

    /// The entries that share one ``LinkListSource``: far fewer than a
    /// chunk of ``ParallelBatch`` (at least 2,048), so two chunks share at
    /// most the one at their boundary, and enough that the sources cost
    /// nothing.
    static let entriesPerSource = 512

    /// Where a URL's bytes lie in the file.
    struct Span {
        var start: Int32
        var count: Int32
    }

    /// The keys accepted, in the order the entries are listed.
    private static let keys: [(list: LinkListKey, expectation: LinkExpectations.Expectation)] = [
        (.deepLinkable, .matched),
        (.nonDeepLinkable, .notMatched),
    ]
    static let keyBytes = keys.map { Array($0.list.rawValue.utf8) }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highBits: UInt64 = 0x8080_8080_8080_8080

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
}
