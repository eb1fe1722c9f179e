/// JSON text written as UTF-8 bytes into one growing array.
///
/// Appending to a `String` costs a capacity and ASCII-flag update per
/// append, which dominated the rendering of long reports (a 100,000-URL
/// link list); bytes are appended with one bounds check, and a string that
/// needs no escape is copied in one block.
public struct JSONTextWriter: Sendable {
    public private(set) var bytes: [UInt8]

    /// `buffer`, emptied, is written into: its storage serves again when
    /// nothing else holds it.
    public init(capacity: Int = 0, reusing buffer: [UInt8] = []) {
        bytes = buffer
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends JSON punctuation or a literal (`{`, `,"key":`, `true`, …).
    public mutating func raw(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends text already written by a ``JSONTextWriter`` (a fragment
    /// rendered once and reused).
    public mutating func raw(_ fragment: [UInt8]) {
        bytes.append(contentsOf: fragment)
    }

    /// ``raw(_:)-([UInt8])`` of bytes lent for the call.
    mutating func raw(_ fragment: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: fragment)
    }

    public mutating func bool(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    /// Integral numbers print without a fraction (`1`, not `1.0`).
    public mutating func number(_ value: Double) {
        if value.isJSONInteger, abs(value) < 1e15 {
            integer(Int(value))
        } else if value.isFinite {
            bytes.append(contentsOf: "\(value)".utf8)
        } else {
            raw("null")
        }
    }

    public mutating func integer(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // Digits are produced last first, into a 24-byte scratch on the stack.
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: buffer[start...])
        }
    }

    /// A quoted string; `/` is not escaped, so AASA patterns read as written.
    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { string(utf8: $0) }
    }

    /// ``string(_:)`` of the string whose UTF-8 is `utf8`.
    mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        contents(utf8: utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    /// The inside of a string (escaped, without quotes) of the string whose
    /// UTF-8 is `utf8`: a string written in parts (``string(of:)``).
    mutating func contents(utf8: UnsafeBufferPointer<UInt8>) {
        // Most strings (URLs, keys, messages) need no escape: one copy.
        if !Self.anyNeedsEscape(utf8) {
            bytes.append(contentsOf: utf8)
        } else {
            for byte in utf8 { escaped(byte) }
        }
    }

    /// The bytes of `text`, which the caller knows needs no escape (the
    /// name of a case, a key of its own), without scanning for one.
    mutating func unescaped(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Whether a byte of `utf8` needs an escape, eight bytes at a time:
    /// the scan of every URL, message and name of a 100,000-line report
    /// was a byte loop of three compares each.
    private static func anyNeedsEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = UnsafeRawPointer(utf8.baseAddress) else { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var offset = 0
        while offset + 8 <= utf8.count {
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            // A byte is below n when subtracting n borrows into its high
            // bit while that bit was clear (exact for n <= 0x80); a byte
            // equals c when it is 0 after xor with c.
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let flags =
                (word &- ones &* 0x20) & ~word
                | (quote &- ones) & ~quote
                | (backslash &- ones) & ~backslash
            if flags & highBits != 0 { return true }
            offset += 8
        }
        return utf8[offset...].contains(where: needsEscape)
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private mutating func escaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case UInt8(ascii: "\n"): raw("\\n")
        case UInt8(ascii: "\r"): raw("\\r")
        case UInt8(ascii: "\t"): raw("\\t")
        case 0x08: raw("\\b")
        case 0x0C: raw("\\f")
        case let control where control < 0x20:
            raw("\\u00")
            bytes.append(Self.hexDigits[Int(control >> 4)])
            bytes.append(Self.hexDigits[Int(control & 0xF)])
        default:
            bytes.append(byte)
        }
    }

    /// Appends `value`, members in their stored order; `pretty` indents by
    /// two spaces per level, starting at `indent`.
    public mutating func value(_ value: JSONValue, pretty: Bool = false, indent: Int = 0) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): bool(flag)
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let elements):
            guard !elements.isEmpty else { return raw("[]") }
            raw("[")
            for (offset, element) in elements.enumerated() {
                if offset > 0 { raw(",") }
                if pretty { newline(indent + 1) }
                self.value(element, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(indent) }
            raw("]")
        case .object(let object):
            guard !object.isEmpty else { return raw("{}") }
            raw("{")
            for (offset, member) in object.members.enumerated() {
                if offset > 0 { raw(",") }
                if pretty { newline(indent + 1) }
                string(member.key)
                pretty ? raw(": ") : raw(":")
                self.value(member.value, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(indent) }
            raw("}")
        }
    }

    /// A line break and `indent` levels of two spaces.
    public mutating func newline(_ indent: Int) {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }
}
