import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `Date` header line: with the status line (a constant) the only bytes
/// of a response not fixed at load time. Its owner (``ResponseCache``, which
/// keeps the current second) rewrites it when the second changes.
struct DateLine {
    private(set) var bytes = ByteBuffer()

    /// Rewrites the line for `now` (the current second).
    mutating func refresh(now: Int = time(nil)) {
        // Rewritten in its own storage: the line is only ever copied out.
        bytes.clear()
        bytes.writeStaticString("Date: ")
        HTTPDate.write(epochSeconds: now, into: &bytes)
        bytes.writeStaticString("\r\n")
    }

    /// Writes `response`'s status line, this `Date` line and its `Connection` line.
    @inline(__always)
    func writePrefix(of response: EncodedResponse, into buffer: inout ByteBuffer) {
        buffer.writeStaticString(response.status.statusLine)
        buffer.writeImmutableBuffer(bytes)
        buffer.writeStaticString(response.connection.headerLine)
    }

    /// The length of what ``writePrefix(of:into:)`` writes.
    @inline(__always)
    func prefixLength(of response: EncodedResponse) -> Int {
        response.status.statusLine.utf8CodeUnitCount + bytes.readableBytes
            + response.connection.headerLine.utf8CodeUnitCount
    }
}
