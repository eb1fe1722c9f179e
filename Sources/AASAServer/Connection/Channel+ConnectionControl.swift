import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket controls ``ConnectionGuard`` uses, on the channel's event loop.
extension Channel {
    /// Closes at once with a reset (`SO_LINGER` 0): what is queued here and
    /// in the kernel is dropped instead of being retried to a client that
    /// does not read.
    func reset() {
        guard let socket = self as? any SocketOptionProvider else {
            return close(promise: nil)
        }
        socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
            self.close(promise: nil)
        }
    }

    /// Turns reading from the socket on or off (TCP then pushes back).
    func setAutoRead(_ on: Bool) {
        try? syncOptions?.setOption(.autoRead, value: on)
    }

    /// Response bytes written but not yet taken by the kernel.
    var queuedBytes: Int {
        (try? syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
    }
}
