/// A short list of strings in one allocation: each string's UTF-8 bytes
/// behind its length (LEB128). What `/status` reports per file (the app IDs)
/// is kept this way because at 10,000 hosts one heap string per app ID, plus
/// the array holding them, cost more than the rest of a file's facts.
struct PackedStrings: Sendable, Equatable {
    private let bytes: [UInt8]

    init(_ strings: [String]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(strings.reduce(0) { $0 + $1.utf8.count + 2 })
        for string in strings {
            var length = string.utf8.count
            // Seven bits a byte, the high bit set on all but the last.
            while length >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: length) | 0x80)
                length >>= 7
            }
            bytes.append(UInt8(length))
            bytes += string.utf8
        }
        self.bytes = bytes
    }

    /// The strings, in the order given.
    var strings: [String] {
        var strings: [String] = []
        var index = 0
        while index < bytes.count {
            var length = 0
            var shift = 0
            while true {
                let byte = bytes[index]
                index += 1
                length |= Int(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 { break }
            }
            strings.append(String(decoding: bytes[index..<index + length], as: UTF8.self))
            index += length
        }
        return strings
    }
}
