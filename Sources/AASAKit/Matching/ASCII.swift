/// Byte classes of the URL parser (``URLByteParser``).
enum ASCII {
    // Constants, not values computed on first use: a lazy global costs a
    // `swift_once` call at every use, several per URL of a list.
    static let slash: UInt8 = 0x2F
    static let backslash: UInt8 = 0x5C

    /// A set of ASCII bytes as a 128-bit mask: bit `b` of `low` for a byte
    /// `b` below 64, bit `b - 64` of `high` for the others.
    struct Set: Sendable, Equatable {
        let low: UInt64
        let high: UInt64

        @inline(__always)
        func contains(_ byte: UInt8) -> Bool {
            if byte < 64 { return low & (1 << UInt64(byte)) != 0 }
            if byte < 128 { return high & (1 << UInt64(byte - 64)) != 0 }
            return false
        }
    }

    // Each mask's members are in its comment; `ASCIISetTests` rebuilds the
    // masks from those lists.

    /// WHATWG's path percent-encode set (query set plus `?` `^` `` ` `` `{` `}`):
    /// `` "#<>?^`{}`` and space.
    static var pathSet: Set { Set(low: 0xD000_000D_0000_0000, high: 0x2800_0001_4000_0000) }
    /// WHATWG's special-query percent-encode set: ` "#<>'` and space.
    static var querySet: Set { Set(low: 0x5000_008D_0000_0000, high: 0) }
    /// WHATWG's fragment percent-encode set: `` "<>` `` and space.
    static var fragmentSet: Set { Set(low: 0x5000_0005_0000_0000, high: 0x0000_0001_0000_0000) }
    /// Bytes a host cannot hold besides controls: ` #%/:<>?@[\]^|` and space.
    static var forbiddenInHost: Set { Set(low: 0xD400_8029_0000_0000, high: 0x1000_0000_7800_0001) }
    /// Bytes that end the path: `?#`.
    static var pathEnds: Set { Set(low: 0x8000_0008_0000_0000, high: 0) }
    /// Bytes that end the query: `#`.
    static var queryEnds: Set { Set(low: 0x0000_0008_0000_0000, high: 0) }
    /// Bytes that end the authority: `/\?#`.
    static var authorityEnds: Set { Set(low: 0x8000_8008_0000_0000, high: 0x0000_0000_1000_0000) }

    /// The uppercase hex digit of `nibble` (below 16).
    @inline(__always)
    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 + nibble : 0x37 + nibble
    }

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
