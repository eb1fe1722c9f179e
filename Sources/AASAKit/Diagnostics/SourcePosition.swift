/// Where something is in a text: a 1-based line and column, and the byte
/// offset they stand for.
///
/// The column counts Unicode scalars from the start of the line, the way an
/// editor counts characters, so `"é": 1` puts the `1` at column 6 whether the
/// `é` takes one byte or two. Lines end at `\n` (a `\r` before it belongs to
/// the line it ends).
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int
    /// 0-based byte offset from the start of the text.
    public var offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// The position of byte `offset` in `bytes` (UTF-8), found by one scan
    /// from the start. An offset past the end is the position just after the
    /// last byte.
    public init(offset: Int, in bytes: [UInt8]) {
        let end = min(max(offset, 0), bytes.count)
        var lineStart = 0
        var line = 1
        for index in 0..<end where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        self.init(line: line, column: Self.column(from: lineStart, to: end, in: bytes), offset: end)
    }

    /// The 1-based column of `end` on a line that starts at `lineStart`:
    /// one plus the scalars between them, each counted at its first byte
    /// (continuation bytes are `10xxxxxx`).
    static func column(from lineStart: Int, to end: Int, in bytes: [UInt8]) -> Int {
        var column = 1
        for index in lineStart..<end where bytes[index] & 0xC0 != 0x80 {
            column += 1
        }
        return column
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        lhs.offset < rhs.offset
    }

    /// `line:column`, as compilers print it after a file name.
    public var description: String {
        "\(line):\(column)"
    }
}
