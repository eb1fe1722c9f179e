extension AASAURL {
    /// Where ``AASAURL``'s path, query and fragment lie: a string, or a span
    /// of a links file's bytes when the URL written there is its own tail
    /// (``URLByteParser/parseCommon(_:host:in:)``: nothing to remove, encode
    /// or resolve). A list's 100,000 URLs made as many strings, a malloc and
    /// a fresh page every ~50 URLs; a span is the file's bytes, already read,
    /// and a retain of the entry's own ``LinkListSource``.
    ///
    /// The storage never shows: equal bytes are equal tails, whichever way
    /// each is held.
    enum Tail: Sendable {
        case string(String)
        /// Bytes of `source` the scanner found valid UTF-8. The offsets are
        /// `Int32`s as the entries' spans are: the enum is 17 bytes (two
        /// `Int`s would make it 25), and the URL 64.
        case span(LinkListSource, start: Int32, count: Int32)

        /// The UTF-8 count.
        var count: Int {
            switch self {
            case .string(let text): text.utf8.count
            case .span(_, _, let count): Int(count)
            }
        }

        /// Calls `body` with the tail's UTF-8, lent in place.
        func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
            switch self {
            case .string(let text):
                text.withLentUTF8(body)
            case .span(let source, let start, let count):
                source.withBytes(start: start, count: count, body)
            }
        }

        /// The tail as a string.
        var string: String {
            switch self {
            case .string(let text): text
            case .span: withUTF8 { String(decoding: $0, as: UTF8.self) }
            }
        }

        /// Byte by byte: `==` of the URL.
        static func equal(_ lhs: Tail, _ rhs: Tail) -> Bool {
            lhs.withUTF8 { left in rhs.withUTF8 { left.elementsEqual($0) } }
        }
    }
}
