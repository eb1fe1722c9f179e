import NIOCore
import NIOEmbedded
import NIOSSL

@testable import AASAServer

/// The serving pipeline on a testing channel: bytes in, bytes out, virtual
/// time for the clocks, writability set by hand.
struct EmbeddedServing {
    let channel: NIOAsyncTestingChannel

    init(
        store: SiteStore,
        limits: ServerConfiguration.Limits = .init(),
        shutdownGrace: Duration = .seconds(8),
        tlsContext: NIOSSLContext? = nil,
        shutdown: ShutdownSignal = ShutdownSignal()
    ) async throws {
        let pipeline = ServingPipeline(
            store: store,
            limits: limits,
            shutdownGrace: shutdownGrace,
            accessLog: nil,
            tlsContext: tlsContext,
            shutdown: shutdown
        )
        let channel = NIOAsyncTestingChannel()
        try await channel.eventLoop.submit { try pipeline.configure(channel) }.get()
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).get()
        self.channel = channel
    }

    /// Writes `text` as one read and returns everything written back.
    @discardableResult
    func send(_ text: String) async throws -> String {
        try await channel.writeInbound(ByteBuffer(string: text))
        return try await output()
    }

    func output() async throws -> String {
        var output = ""
        while let buffer = try await channel.readOutbound(as: ByteBuffer.self) {
            output += String(buffer: buffer)
        }
        return output
    }

    var isOpen: Bool {
        get async { await (try? channel.eventLoop.submit { channel.isActive }.get()) ?? false }
    }

    func setWritable(_ writable: Bool) async throws {
        channel.isWritable = writable
        try await channel.eventLoop.submit {
            channel.pipeline.syncOperations.fireChannelWritabilityChanged()
        }.get()
    }

    /// The client shut its write side (with `allowRemoteHalfClosure`).
    func endInput() async throws {
        try await channel.eventLoop.submit {
            channel.pipeline.syncOperations.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        }.get()
    }

    func advance(by amount: TimeAmount) async {
        await channel.testingEventLoop.advanceTime(by: amount)
    }

    /// The statuses of the responses in `output`, in order.
    static func statuses(_ output: String) -> [String] {
        output.components(separatedBy: "HTTP/1.1 ").dropFirst().map { String($0.prefix(3)) }
    }
}
