/// Why a text is not JSON, with where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        case empty
        case byteOrderMark
        case unexpectedEnd
        case unexpectedByte(UInt8)
        case invalidLiteral
        case invalidNumber
        case invalidEscape
        case invalidUnicodeEscape
        case controlCharacterInString
        case invalidUTF8
        case expectedColon
        case expectedCommaOrEnd(closing: Character)
        case expectedKey
        case tooDeep(limit: Int)
        case trailingContent
    }

    public var reason: Reason
    /// Byte offset from the start of the text.
    public var offset: Int
    /// 1-based line.
    public var line: Int
    /// 1-based column, in Unicode scalars (see ``SourcePosition``).
    public var column: Int

    /// Where the text stops being JSON.
    public var position: SourcePosition {
        SourcePosition(line: line, column: column, offset: offset)
    }

    init(reason: Reason, at position: SourcePosition) {
        self.reason = reason
        self.offset = position.offset
        self.line = position.line
        self.column = position.column
    }

    public var description: String {
        "invalid JSON at line \(line), column \(column): \(reasonText)"
    }

    private var reasonText: String {
        switch reason {
        case .empty: "the file is empty"
        case .byteOrderMark: "the file starts with a UTF-8 byte-order mark; remove it"
        case .unexpectedEnd: "unexpected end of file (truncated JSON?)"
        case .unexpectedByte(let byte): "unexpected \(Self.describe(byte))"
        case .invalidLiteral: "invalid literal (expected true, false or null)"
        case .invalidNumber: "invalid number"
        case .invalidEscape: "invalid escape sequence in string"
        case .invalidUnicodeEscape: "invalid \\u escape (bad hex or unpaired surrogate)"
        case .controlCharacterInString: "unescaped control character in string"
        case .invalidUTF8: "invalid UTF-8 byte sequence"
        case .expectedColon: "expected ':' after object key"
        case .expectedCommaOrEnd(let closing): "expected ',' or '\(closing)'"
        case .expectedKey: "expected a string key"
        case .tooDeep(let limit): "nesting deeper than \(limit) levels"
        case .trailingContent: "unexpected content after the JSON value"
        }
    }

    private static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7F {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}
