#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds where each request head ends in the bytes of a connection, so that
/// the decoder can be handed one request at a time, and checks the request
/// line's shape before NIO's parser sees it.
///
/// Every request the origin answers ends with its head (CRLF CRLF): a request
/// with a body is refused and the connection closed. The scanner does not
/// parse; it only tracks the last bytes of the stream, where the current
/// head began and how long its request line is.
struct HeadScanner {
    /// What one scan found.
    enum Finding: Equatable {
        /// A head ends `count` bytes into the scanned bytes.
        case headEnd(count: Int)
        /// No head ends in these bytes; hand all of them over.
        case none
        /// The request line is longer than the limit (414): do not hand over.
        case requestLineTooLong
        /// The request line ended without `HTTP/x.y` (HTTP/0.9's `GET /`)
        /// or with a bare LF: answer 400 at once rather than wait for more.
        case requestLineMalformed
    }

    private enum Phase {
        /// Between heads: only CR and LF seen since the last one (RFC 9112
        /// §2.2 lets a server skip empty lines before a request line).
        case between
        case requestLine
        case fields
    }

    private static let cr = UInt8(ascii: "\r")
    private static let lf = UInt8(ascii: "\n")

    /// The longest request line accepted (`limits.maxHeaderBytes`).
    let maximumRequestLine: Int
    private var phase = Phase.between
    private var requestLineLength = 0
    /// The last eight bytes of the stream, newest in the low byte.
    private var tail: UInt64 = 0

    init(maximumRequestLine: Int) {
        self.maximumRequestLine = maximumRequestLine
    }

    /// Whether part of a head has arrived and its end has not.
    var isInHead: Bool { phase != .between }

    /// Scans `bytes` (the next bytes of the stream) up to the first head end.
    /// Bytes after a finding other than `.none` are not looked at: scan them
    /// again once the finding has been dealt with.
    ///
    /// Inside a request line or the fields only a LF can change anything, so
    /// the scan jumps from LF to LF (`memchr`) instead of stepping through
    /// every byte: it runs on every request, ahead of NIO's own parse.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Finding {
        var index = 0
        let count = bytes.count
        while index < count {
            switch phase {
            case .between:
                let byte = bytes[index]
                index += 1
                tail = tail &<< 8 | UInt64(byte)
                if byte != Self.cr && byte != Self.lf {
                    phase = .requestLine
                    requestLineLength = 1
                }
            case .requestLine:
                let end = Self.nextLF(in: bytes, from: index)
                // Every byte before the LF belongs to the line.
                requestLineLength += (end ?? count) - index
                if requestLineLength > maximumRequestLine { return .requestLineTooLong }
                guard let end else {
                    absorb(bytes, from: index, to: count)
                    return .none
                }
                absorb(bytes, from: index, to: end + 1)
                index = end + 1
                guard Self.endsWithVersion(tail) else { return .requestLineMalformed }
                phase = .fields
            case .fields:
                guard let end = Self.nextLF(in: bytes, from: index) else {
                    absorb(bytes, from: index, to: count)
                    return .none
                }
                absorb(bytes, from: index, to: end + 1)
                index = end + 1
                // `\r\n` after the request line's own `\r\n`: the head is complete.
                if tail & 0xFFFF_FFFF == 0x0D0A_0D0A {
                    phase = .between
                    return .headEnd(count: index)
                }
            }
        }
        return .none
    }

    /// The offset of the first LF at or after `start`, if any.
    @inline(__always)
    private static func nextLF(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(lf), bytes.count - start)
        else { return nil }
        return UnsafeRawPointer(found) - base
    }

    /// Brings ``tail`` to end at `bytes[end - 1]`: only the last eight of
    /// the bytes from `start` can still be in it.
    @inline(__always)
    private mutating func absorb(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) {
        var index = max(start, end - 8)
        while index < end {
            tail = tail &<< 8 | UInt64(bytes[index])
            index += 1
        }
    }

    /// Whether the eight bytes ending in the request line's LF read
    /// `TP/d.d\r\n`, the end of `HTTP/1.1\r\n`: anything else is a line NIO's
    /// parser either rejects or waits on (HTTP/0.9 has no version).
    private static func endsWithVersion(_ tail: UInt64) -> Bool {
        func byte(_ back: Int) -> UInt8 { UInt8(truncatingIfNeeded: tail >> (8 * back)) }
        func isDigit(_ value: UInt8) -> Bool { value >= UInt8(ascii: "0") && value <= UInt8(ascii: "9") }
        return byte(1) == cr && isDigit(byte(2)) && byte(3) == UInt8(ascii: ".") && isDigit(byte(4))
            && byte(5) == UInt8(ascii: "/") && byte(6) == UInt8(ascii: "P") && byte(7) == UInt8(ascii: "T")
    }
}
