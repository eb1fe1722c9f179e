import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A client connection whose reading the test controls: a small receive
/// buffer and no automatic reads, so it can pipeline without reading (the
/// server then sees a full socket), read slowly, or shut its write side.
/// Everything it receives is kept, with how the connection ended.
struct RawClient {
    let channel: any Channel
    private let collector: Collector

    /// How the server ended the connection.
    enum Ending: Equatable {
        case open
        /// A clean end of stream (FIN).
        case endOfStream
        /// A reset or another socket error.
        case error(String)
    }

    /// `firstWrite` goes out on the event loop as soon as the connection is
    /// up, not when the test's task next runs: under a full suite's load a
    /// task can resume seconds later, past a server's idle timeout.
    static func connect(
        port: Int,
        receiveBuffer: Int = 4096,
        autoRead: Bool = false,
        firstWrite: String? = nil
    ) async throws -> RawClient {
        let collector = Collector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBuffer))
            .channelOption(.autoRead, value: autoRead)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(collector)
                }
            }
            .connect(host: "127.0.0.1", port: port)
            .map { channel in
                if let firstWrite { channel.writeAndFlush(ByteBuffer(string: firstWrite), promise: nil) }
                return channel
            }
            .get()
        return RawClient(channel: channel, collector: collector)
    }

    func write(_ text: String) {
        channel.writeAndFlush(ByteBuffer(string: text), promise: nil)
    }

    /// Shuts the write side (`shutdown(SHUT_WR)`): the server sees the end of input.
    func shutdownOutput() async throws {
        try await channel.close(mode: .output)
    }

    /// Closes with a reset (`SO_LINGER` 0), as a client that crashed or
    /// a load balancer that gave up would.
    func abort() async throws {
        let socket = try #require(channel as? any SocketOptionProvider)
        try await socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        try await channel.close()
    }

    /// Asks for one more read from the socket (with `autoRead` off).
    func readOnce() {
        channel.read()
    }

    var received: [UInt8] { collector.bytes.withLockedValue { $0 } }
    var ending: Ending { collector.ending.withLockedValue { $0 } }

    /// The responses received, parsed by the tests' simple parser; a
    /// truncated last response is not counted.
    var responses: [TestResponse] {
        var buffer = ByteBuffer(bytes: received)
        var responses: [TestResponse] = []
        while let response = TestResponse.take(from: &buffer, isHead: false) { responses.append(response) }
        return responses
    }

    /// Bytes received after the last complete response.
    var trailingBytes: Int {
        var buffer = ByteBuffer(bytes: received)
        while TestResponse.take(from: &buffer, isHead: false) != nil {}
        return buffer.readableBytes
    }

    /// Waits until `count` complete responses have arrived or the
    /// connection closed; if the waiting task is cancelled, closes it.
    func waitForResponses(_ count: Int) async throws {
        let channel = self.channel
        let collector = self.collector
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                collector.wait(for: count, continuation)
            }
        } onCancel: {
            channel.close(promise: nil)
        }
    }

    /// Waits for the connection to close; if the waiting task is cancelled
    /// (a deadline passed), closes it so the wait ends.
    func waitUntilClosed() async throws {
        let channel = self.channel
        try await withTaskCancellationHandler {
            try await channel.closeFuture.get()
        } onCancel: {
            channel.close(promise: nil)
        }
    }

    private final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let bytes = NIOLockedValueBox<[UInt8]>([])
        let ending = NIOLockedValueBox(Ending.open)
        private let waiters = NIOLockedValueBox<[(Int, CheckedContinuation<Void, Never>)]>([])

        private var responseCount: Int {
            var buffer = ByteBuffer(bytes: bytes.withLockedValue { $0 })
            var count = 0
            while TestResponse.take(from: &buffer, isHead: false) != nil { count += 1 }
            return count
        }

        func wait(for count: Int, _ continuation: CheckedContinuation<Void, Never>) {
            let ready = waiters.withLockedValue { waiters in
                if responseCount >= count || ending.withLockedValue({ $0 != .open }) { return true }
                waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }

        private func wake(all: Bool) {
            let count = responseCount
            let ready = waiters.withLockedValue { waiters in
                let ready = waiters.filter { all || $0.0 <= count }
                waiters.removeAll { all || $0.0 <= count }
                return ready
            }
            for (_, continuation) in ready { continuation.resume() }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            bytes.withLockedValue { $0 += buffer.readableBytesView }
            wake(all: false)
        }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            ending.withLockedValue { if $0 == .open { $0 = .error("\(error)") } }
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            ending.withLockedValue { if $0 == .open { $0 = .endOfStream } }
            wake(all: true)
        }
    }
}
