import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `Date` header line, rebuilt when the second changes: with the status
/// line (a constant) the only bytes of a response not fixed at load time.
struct DateLine {
    private(set) var second = -1
    private(set) var bytes = ByteBuffer()

    /// Brings the line to `now` (the current second); true when it changed.
    @inline(__always)
    @discardableResult
    mutating func refresh(now: Int = time(nil)) -> Bool {
        guard now != second else { return false }
        second = now
        // Rewritten in its own storage: the line is only ever copied out.
        bytes.clear()
        bytes.writeStaticString("Date: ")
        HTTPDate.write(epochSeconds: now, into: &bytes)
        bytes.writeStaticString("\r\n")
        return true
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
