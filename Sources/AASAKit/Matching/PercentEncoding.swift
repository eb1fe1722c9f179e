/// Percent-escape helpers shared by URL encoding and `percentEncoded:false`
/// matching.
enum PercentEncoding {
    private static let hexDigits = Array("0123456789ABCDEF".unicodeScalars)

    /// `%XX` with uppercase hex, the way URL parsers write escapes.
    static func escape(_ byte: UInt8) -> String {
        var text = "%"
        text.unicodeScalars.append(hexDigits[Int(byte >> 4)])
        text.unicodeScalars.append(hexDigits[Int(byte & 0x0F)])
        return text
    }

    /// Decodes every `%XX`, then UTF-8. `nil` when an escape is malformed
    /// (`%zz`, a lone `%`) or the bytes are not UTF-8: the component is
    /// undecodable (docs/SEMANTICS.md §3.5, *open*: we do not match it).
    static func decode(_ text: Substring) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return UTF8Text.decode(bytes)
    }

    /// ``decode(_:)`` on bytes: appends the bytes `text` stands for to
    /// `output` (UTF-8 not checked); `false` when an escape is malformed.
    static func decode(_ text: some Collection<UInt8>, appendingTo output: inout [UInt8]) -> Bool {
        var iterator = text.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return false
            }
            output.append(high << 4 | low)
        }
        return true
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
