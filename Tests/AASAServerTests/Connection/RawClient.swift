import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

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

    static func connect(port: Int, receiveBuffer: Int = 4096, autoRead: Bool = false) async throws -> RawClient {
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

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            bytes.withLockedValue { $0 += buffer.readableBytesView }
        }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            ending.withLockedValue { if $0 == .open { $0 = .error("\(error)") } }
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            ending.withLockedValue { if $0 == .open { $0 = .endOfStream } }
        }
    }
}
