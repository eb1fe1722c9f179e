import AASAKit
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus
import ServiceLifecycle

/// The origin, assembled: the store, its reloader, the serving listener and
/// the admin listener, as services for one `ServiceGroup` (in that order, so
/// that on shutdown the listeners stop before the reloader).
///
/// ```swift
/// let origin = AASAOrigin(configuration: configuration, logger: logger)
/// try await origin.initialLoad()
/// let group = ServiceGroup(configuration: .init(services: origin.services, ...))
/// try await group.run()
/// ```
public struct AASAOrigin: Sendable {
    public let configuration: ServerConfiguration
    public let store: SiteStore
    public let reloader: SiteReloader
    /// Resolves once the serving port is listening (useful with port 0).
    public let httpAddress = BoundAddress()
    /// Resolves once the admin port is listening; never when it is disabled.
    public let adminAddress = BoundAddress()

    private let logger: Logger
    private let registry: PrometheusCollectorRegistry?
    private let group: any EventLoopGroup

    public init(
        configuration: ServerConfiguration,
        logger: Logger,
        registry: PrometheusCollectorRegistry? = nil,
        validator: AASAValidator = AASAValidator(),
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.configuration = configuration
        self.logger = logger
        self.registry = registry
        self.group = group
        self.store = SiteStore()
        self.reloader = SiteReloader(
            store: store,
            loader: SiteLoader(configuration: configuration, validator: validator),
            pollInterval: configuration.files.pollInterval,
            logger: logger
        )
    }

    /// The first load; in strict mode any invalid file is fatal.
    public func initialLoad() async throws(StartupError) {
        try await reloader.initialLoad(strict: configuration.files.strict)
    }

    /// The long-lived services, in start order.
    public var services: [any Service] {
        var services: [any Service] = [reloader]
        if let admin = configuration.admin {
            services.append(
                ListeningServer(
                    name: "admin",
                    listener: admin,
                    group: group,
                    logger: logger,
                    childInitializer: adminPipeline,
                    bound: adminAddress
                )
            )
        }
        services.append(
            ListeningServer(
                name: "http",
                listener: configuration.http,
                group: group,
                logger: logger,
                childInitializer: servingPipeline(),
                bound: httpAddress
            )
        )
        return services
    }

    private func servingPipeline() -> ListeningServer.ChildInitializer {
        let store = self.store
        let responder = Responder()
        let limits = configuration.limits
        let accessLog = configuration.log.access ? logger : nil
        let unknownHostCounters = RequestCounters(host: "unknown")
        let connections = ConnectionCounter(limit: limits.maxConnections)
        var decoderLimits = NIOHTTPDecoderLimitConfiguration()
        decoderLimits.maxHeaderFieldSize = limits.maxHeaderBytes
        decoderLimits.maxHeaderListSize = limits.maxHeaderBytes
        let headerTimeout = TimeAmount(limits.headerTimeout)
        let idleTimeout = TimeAmount(limits.idleTimeout)
        return { channel in
            channel.eventLoop.makeCompletedFuture {
                let pipeline = channel.pipeline.syncOperations
                guard connections.acquire() else {
                    // Over the cap: one cheap 503 and close, before any parsing.
                    let response = responder.overloaded
                    channel.writeAndFlush(ByteBuffer(string: response.status.statusLine))
                        .and(channel.writeAndFlush(response.bytes))
                        .whenComplete { _ in channel.close(promise: nil) }
                    return
                }
                channel.closeFuture.whenComplete { _ in connections.release() }
                let timeouts = ConnectionTimeouts(headerTimeout: headerTimeout, idleTimeout: idleTimeout)
                try pipeline.addHandler(RequestStartDetector(timeouts: timeouts))
                try pipeline.addHandler(
                    ByteToMessageHandler(
                        HTTPRequestDecoder(
                            leftOverBytesStrategy: .dropBytes,
                            informationalResponseStrategy: .drop,
                            limitConfiguration: decoderLimits
                        )
                    )
                )
                try pipeline.addHandler(
                    AASARequestHandler(
                        store: store,
                        responder: responder,
                        timeouts: timeouts,
                        accessLog: accessLog,
                        unknownHostCounters: unknownHostCounters
                    )
                )
            }
        }
    }

    private var adminPipeline: ListeningServer.ChildInitializer {
        let store = self.store
        let registry = self.registry
        return { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                try channel.pipeline.syncOperations.addHandler(AdminHandler(store: store, registry: registry))
            }
        }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
