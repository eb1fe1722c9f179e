/// A host name as the store keys it: lowercase, no port, no trailing dot;
/// IPv6 literals keep their brackets (`[::1]`).
///
/// The same rules apply to a `Host` header and to a directory name, so a
/// request can only ever reach a host that was loaded from disk; nothing from
/// a request becomes a path. Defined here, beside the rest of the served
/// layout, so the server, the checks and the CLI agree on what a host is.
public struct HostName: Sendable, Hashable, CustomStringConvertible {
    public let value: String

    public var description: String { value }

    /// Parses a `Host` header value or an authority: `Example.COM:443.` →
    /// `example.com`. Returns `nil` for anything that is not a DNS name, an
    /// IPv4 address or a bracketed IPv6 literal (NUL, `/`, `..`, spaces,
    /// non-ASCII, empty labels, a non-numeric port).
    ///
    /// A value that is already a normalised name (the usual `Host` header)
    /// becomes the key itself, with no copy.
    public init?(authority: String) {
        guard Self.checkDNSName(authority.utf8[...]) == .normalized else {
            self.init(authority: Substring(authority))
            return
        }
        self.init(normalized: authority)
    }

    private init(normalized value: String) {
        self.value = value
    }

    public init?(authority: Substring) {
        let utf8 = authority.utf8
        guard !utf8.isEmpty, utf8.count <= 262 else { return nil }
        if utf8.first == UInt8(ascii: "[") {
            guard let normalized = Self.normalizeIPv6(utf8) else { return nil }
            self.value = normalized
            return
        }
        var hostEnd = utf8.endIndex
        if let colon = utf8.lastIndex(of: UInt8(ascii: ":")) {
            guard Self.isPort(utf8[utf8.index(after: colon)...]) else { return nil }
            hostEnd = colon
        }
        let name = utf8[utf8.startIndex..<hostEnd]
        guard Self.checkDNSName(name) != .invalid else { return nil }
        self.value = Self.normalizeDNSName(name)
    }

    /// Parses a directory name or a configured name; unlike a `Host` header
    /// it may not carry a port.
    public init?(name: String) {
        guard !name.utf8.contains(UInt8(ascii: ":")) || name.hasPrefix("["),
            let parsed = HostName(authority: name)
        else { return nil }
        self = parsed
    }

    /// The name one label up for wildcard lookup: `a.b.example` → `b.example`;
    /// nil once one label would be left (a wildcard never covers a TLD).
    public var parent: Substring? {
        guard let dot = value.firstIndex(of: ".") else { return nil }
        let rest = value[value.index(after: dot)...]
        return rest.contains(".") ? rest : nil
    }

    private static func isPort(_ bytes: some Collection<UInt8>) -> Bool {
        // An empty port (`host:`) is allowed by RFC 3986.
        bytes.count <= 5 && bytes.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private enum DNSNameShape {
        case invalid
        /// Valid and already lowercase without a trailing dot.
        case normalized
        /// Valid once lowercased and stripped of its trailing dot.
        case needsNormalizing
    }

    /// Letters, digits, `-` and `_` in labels of 1–63 bytes, at most 253
    /// bytes without a trailing dot, not starting with `-`.
    private static func checkDNSName(_ bytes: Substring.UTF8View) -> DNSNameShape {
        // Read through a buffer pointer: stepping a `Substring.UTF8View`
        // checks each index against the bounds and the encoding, and this
        // runs for the Host of every request. Native strings (all that
        // reach the server) are contiguous; a bridged one is copied first.
        func shape(_ bytes: UnsafeBufferPointer<UInt8>) -> DNSNameShape {
            var shape = DNSNameShape.normalized
            var labelLength = 0
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "-"), UInt8(ascii: "_"):
                    labelLength += 1
                case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    shape = .needsNormalizing
                    labelLength += 1
                case UInt8(ascii: "."):
                    guard labelLength > 0 else { return .invalid }
                    labelLength = 0
                default:
                    return .invalid
                }
                guard labelLength <= 63 else { return .invalid }
            }
            var length = bytes.count
            if bytes.last == UInt8(ascii: ".") {
                shape = .needsNormalizing
                length -= 1
            }
            guard length > 0, length <= 253, bytes.first != UInt8(ascii: "-") else { return .invalid }
            return shape
        }
        return bytes.withContiguousStorageIfAvailable(shape) ?? Array(bytes).withUnsafeBufferPointer(shape)
    }

    /// Lowercases a name `checkDNSName` accepted and drops its trailing dot.
    private static func normalizeDNSName(_ bytes: Substring.UTF8View) -> String {
        let length = bytes.last == UInt8(ascii: ".") ? bytes.count - 1 : bytes.count
        return String(unsafeUninitializedCapacity: length) { output in
            for (index, byte) in bytes.prefix(length).enumerated() {
                output[index] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            }
            return length
        }
    }

    private static func normalizeIPv6(_ bytes: some Collection<UInt8>) -> String? {
        guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return nil }
        let inside = bytes[bytes.index(after: bytes.startIndex)..<close]
        let afterClose = bytes[bytes.index(after: close)...]
        if let first = afterClose.first {
            guard first == UInt8(ascii: ":"), isPort(afterClose.dropFirst()) else { return nil }
        }
        guard inside.count >= 2, inside.contains(UInt8(ascii: ":")) else { return nil }
        var output: [UInt8] = [UInt8(ascii: "[")]
        for byte in inside {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: ":"),
                UInt8(ascii: "."):
                output.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "F"):
                output.append(byte | 0x20)
            default:
                return nil
            }
        }
        output.append(UInt8(ascii: "]"))
        return String(decoding: output, as: UTF8.self)
    }
}
