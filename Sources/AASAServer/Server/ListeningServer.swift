import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOExtras
import NIOPosix
import ServiceLifecycle

/// A TCP listener as a service: binds, reports its address, serves until
/// graceful shutdown, then stops accepting, lets open connections finish
/// (they get `ChannelShouldQuiesceEvent`) and returns once all have closed.
///
/// Both the serving port and the admin port are one of these; they differ
/// only in the pipeline each connection gets. `run()` also returns, with
/// ``ListenerClosed``, if the listening socket closes for any other reason,
/// so the service group learns that the port is gone.
struct ListeningServer: Service {
    typealias ChildInitializer = @Sendable (Channel) throws -> Void

    let name: String
    let listener: ServerConfiguration.Listener
    let group: any EventLoopGroup
    let logger: Logger
    let admission: ConnectionAdmission
    let childInitializer: ChildInitializer
    /// Resolved with the bound address once listening (port 0 resolves here).
    let bound: BoundAddress
    /// Set when graceful shutdown begins, before connections are told to quiesce.
    let shutdown: ShutdownSignal
    private let quiesce: ServerQuiescingHelper

    /// How long accepting pauses after `accept` fails (EMFILE, ENFILE,
    /// ENOBUFS): without a pause the loop retries at once, forever, at
    /// 100 % CPU, starving every connection on that loop.
    static let acceptBackoff = TimeAmount.milliseconds(100)

    init(
        name: String,
        listener: ServerConfiguration.Listener,
        group: any EventLoopGroup,
        logger: Logger,
        admission: ConnectionAdmission,
        childInitializer: @escaping ChildInitializer,
        bound: BoundAddress,
        shutdown: ShutdownSignal
    ) {
        self.name = name
        self.listener = listener
        self.group = group
        self.logger = logger
        self.admission = admission
        self.childInitializer = childInitializer
        self.bound = bound
        self.shutdown = shutdown
        self.quiesce = ServerQuiescingHelper(group: group)
    }

    func run() async throws {
        let channel: any Channel
        do {
            channel = try await bind()
        } catch {
            bound.resolve(.failure(error))
            throw error
        }
        guard let address = channel.localAddress else {
            throw StartupError(message: "\(name): bound without a local address")
        }
        logger.notice("listening", metadata: ["server": "\(name)", "address": "\(address)"])
        bound.resolve(.success(address), listener: channel)
        try await serve(channel)
    }

    private func bind() async throws -> any Channel {
        let quiesce = self.quiesce
        let acceptFailures = RateLimitedLog(logger: logger, message: "accept failed; pausing accepts")
        let name = self.name
        let admission = self.admission
        let childInitializer = self.childInitializer
        let refusal = Self.refusal
        return try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try Self.configureListener(channel, quiesce: quiesce, backoff: Self.acceptBackoff) { error in
                        acceptFailures.record(["server": .string(name), "error": .string("\(error)")])
                    }
                }
            }
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            // Half-closed clients still get every answer (RFC 9112 §9.6):
            // ConnectionGuard ends the connection itself.
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelOption(.writeBufferWaterMark, value: ConnectionLimits.outputWaterMark)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard admission.admit() else {
                        channel.writeAndFlush(refusal).whenComplete { _ in channel.close(promise: nil) }
                        return
                    }
                    channel.closeFuture.whenComplete { _ in admission.release() }
                    try childInitializer(channel)
                }
            }
            .bind(host: listener.bind, port: listener.port)
            .get()
    }

    /// The handlers of the listening socket: graceful shutdown, and a pause
    /// in accepting after `accept` fails (`ServerBootstrap.bind`'s future-based
    /// path does not add NIO's `AcceptBackoffHandler` by itself).
    ///
    /// The handler alone does not pause a real socket: after a failed
    /// `accept` NIO keeps the read it had asked for pending and the socket
    /// registered for readability, so the loop retries on the next wake-up
    /// without asking the pipeline (millions of failures in 10 s, a core at
    /// 100 %). Turning `autoRead` off for the backoff unregisters the socket
    /// until it is turned on again.
    static func configureListener(
        _ channel: any Channel,
        quiesce: ServerQuiescingHelper,
        backoff: TimeAmount,
        onAcceptError: @escaping (IOError) -> Void
    ) throws {
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(
            AcceptBackoffHandler(shouldForwardIOErrorCaught: false) { error in
                onAcceptError(error)
                pauseAccepting(channel, for: backoff)
                return backoff
            }
        )
        try pipeline.addHandler(quiesce.makeServerChannelHandler(channel: channel))
    }

    /// Stops reading (accepting) on `channel` and starts again after
    /// `backoff`; a failure during a pause does not extend it. Called on the
    /// channel's event loop.
    static func pauseAccepting(_ channel: any Channel, for backoff: TimeAmount) {
        guard let options = channel.syncOptions, (try? options.getOption(.autoRead)) == true else { return }
        try? options.setOption(.autoRead, value: false)
        channel.eventLoop.scheduleTask(in: backoff) {
            try? channel.syncOptions?.setOption(.autoRead, value: true)
        }
    }

    /// The answer to a connection over the cap, before any parsing.
    static let refusal: ByteBuffer = {
        let response = Responder().overloaded
        var bytes = ByteBuffer()
        bytes.writeStaticString(response.status.statusLine)
        bytes.writeImmutableBuffer(response.bytes)
        return bytes
    }()

    private func serve(_ channel: any Channel) async throws {
        let quiesced = channel.eventLoop.makePromise(of: Void.self)
        let shuttingDown = NIOLockedValueBox(false)
        await withGracefulShutdownHandler {
            // Returns when the listening socket closes: by the quiescing
            // below, or for any other reason.
            try? await channel.closeFuture.get()
        } onGracefulShutdown: {
            logger.notice("shutting down", metadata: ["server": "\(name)"])
            shuttingDown.withLockedValue { $0 = true }
            self.shutdown.begin()
            self.quiesce.initiateShutdown(promise: quiesced)
        }
        guard shuttingDown.withLockedValue({ $0 }) else {
            quiesced.succeed()  // never used: no shutdown began
            logger.error("listener closed", metadata: ["server": "\(name)"])
            throw ListenerClosed(name: name)
        }
        // Wait for every connection (each closes by the shutdown grace),
        // unless we were cancelled, in which case the group tears down.
        try await withTaskCancellationHandler {
            try await quiesced.futureResult.get()
        } onCancel: {
            channel.close(promise: nil)
            quiesced.succeed()
        }
    }
}

/// A listener's socket closed while the server was not shutting down.
public struct ListenerClosed: Error, CustomStringConvertible {
    public let name: String
    public var description: String { "the \(name) listener closed unexpectedly" }
}
