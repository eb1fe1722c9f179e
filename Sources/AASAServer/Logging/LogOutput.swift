import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the log writer's bytes go: a descriptor (stderr), written with
/// write(2) until every byte is out or the descriptor fails. Unlike
/// `FileHandle.write(_:)`, nothing here traps: a reader that went away
/// (EPIPE) or a closed descriptor is an error the writer counts, and the
/// process keeps serving.
public struct LogOutput: Sendable {
    public let descriptor: FileDescriptor

    public init(descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    /// Writes all of `bytes`. An interrupted write is retried (by
    /// swift-system); a non-blocking descriptor that is full (EAGAIN) is
    /// waited on with poll(2); any other error ends the write.
    /// - Returns: the error that stopped it, or nil when everything was written.
    public func write(_ bytes: [UInt8]) -> Errno? {
        var offset = 0
        while offset < bytes.count {
            do {
                offset += try bytes[offset...].withUnsafeBytes { try descriptor.write($0) }
            } catch let error as Errno where error == .wouldBlock {
                waitUntilWritable()
            } catch let error as Errno {
                return error
            } catch {
                // swift-system's write(2) throws only `Errno`.
                return .ioError
            }
        }
        return nil
    }

    /// Blocks this (the writer's) thread until the descriptor takes bytes
    /// again, or it fails, which the next write(2) then reports.
    private func waitUntilWritable() {
        var request = pollfd(fd: descriptor.rawValue, events: Int16(POLLOUT), revents: 0)
        while poll(&request, 1, -1) < 0 && errno == EINTR {}
    }
}
