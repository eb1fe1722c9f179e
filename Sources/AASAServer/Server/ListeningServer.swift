import Logging
import NIOCore
import NIOExtras
import NIOPosix
import ServiceLifecycle

/// A TCP listener as a service: binds, reports its address, serves until
/// graceful shutdown, then stops accepting, lets open connections finish
/// (they get `ChannelShouldQuiesceEvent`) and returns once all have closed.
///
/// Both the serving port and the admin port are one of these; they differ
/// only in the pipeline each connection gets.
struct ListeningServer: Service {
    typealias ChildInitializer = @Sendable (Channel) -> EventLoopFuture<Void>

    let name: String
    let listener: ServerConfiguration.Listener
    let group: any EventLoopGroup
    let logger: Logger
    let childInitializer: ChildInitializer
    /// Resolved with the bound address once listening (port 0 resolves here).
    let bound: BoundAddress
    /// Set when graceful shutdown begins, before connections are told to quiesce.
    let shutdown: ShutdownSignal?

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
        bound.resolve(.success(address))
        try await serve(channel)
    }

    private let quiesce: ServerQuiescingHelper

    init(
        name: String,
        listener: ServerConfiguration.Listener,
        group: any EventLoopGroup,
        logger: Logger,
        childInitializer: @escaping ChildInitializer,
        bound: BoundAddress,
        shutdown: ShutdownSignal? = nil
    ) {
        self.name = name
        self.listener = listener
        self.group = group
        self.logger = logger
        self.childInitializer = childInitializer
        self.bound = bound
        self.shutdown = shutdown
        self.quiesce = ServerQuiescingHelper(group: group)
    }

    private func bind() async throws -> any Channel {
        let quiesce = self.quiesce
        return try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        quiesce.makeServerChannelHandler(channel: channel)
                    )
                }
            }
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelInitializer(childInitializer)
            .bind(host: listener.bind, port: listener.port)
            .get()
    }

    private func serve(_ channel: any Channel) async throws {
        let closed = channel.eventLoop.makePromise(of: Void.self)
        await withGracefulShutdownHandler {
            try? await channel.closeFuture.get()
        } onGracefulShutdown: {
            logger.notice("shutting down", metadata: ["server": "\(name)"])
            self.shutdown?.begin()
            self.quiesce.initiateShutdown(promise: closed)
        }
        // Wait for every connection, unless we were cancelled (the service
        // group's grace period ran out), in which case the group tears down.
        try await withTaskCancellationHandler {
            try await closed.futureResult.get()
        } onCancel: {
            channel.close(promise: nil)
            closed.succeed()
        }
    }
}
