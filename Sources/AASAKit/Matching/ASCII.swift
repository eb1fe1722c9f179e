/// Byte classes of the URL parser (``URLByteParser``).
enum ASCII {
    static let slash = UInt8(ascii: "/")
    static let backslash = UInt8(ascii: "\\")
    static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// A set of ASCII bytes as a 128-bit mask.
    struct Set: Sendable {
        private let low: UInt64
        private let high: UInt64

        init(_ members: String) {
            var low: UInt64 = 0
            var high: UInt64 = 0
            for byte in members.utf8 where byte < 0x80 {
                if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
            }
            self.low = low
            self.high = high
        }

        @inline(__always)
        func contains(_ byte: UInt8) -> Bool {
            if byte < 64 { return low & (1 << UInt64(byte)) != 0 }
            if byte < 128 { return high & (1 << UInt64(byte - 64)) != 0 }
            return false
        }
    }

    /// WHATWG's path percent-encode set (query set plus `?` `^` `` ` `` `{` `}`).
    static let pathSet = Set(" \"#<>?^`{}")
    /// WHATWG's special-query percent-encode set.
    static let querySet = Set(" \"#<>'")
    /// WHATWG's fragment percent-encode set.
    static let fragmentSet = Set(" \"<>`")
    private static let forbiddenInHost = Set(" #%/:<>?@[\\]^|")
    private static let authorityEnds = Set("/\\?#")

    /// Whether a byte stays as it is in a component encoded with `set`.
    @inline(__always)
    static func isKept(_ byte: UInt8, _ set: Set) -> Bool {
        byte > 0x20 && byte < 0x7F && !set.contains(byte)
    }

    @inline(__always)
    static func isForbiddenInHost(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || forbiddenInHost.contains(byte)
    }

    @inline(__always)
    static func endsAuthority(_ byte: UInt8) -> Bool { authorityEnds.contains(byte) }

    @inline(__always)
    static func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }

    @inline(__always)
    static func isLetter(_ byte: UInt8) -> Bool { isUpper(byte) || (byte >= 0x61 && byte <= 0x7A) }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
