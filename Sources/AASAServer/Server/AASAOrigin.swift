import AASAKit
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
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
    private let requestCounts = RequestCountTable()
    /// Set when the serving listener begins graceful shutdown.
    private let shutdown = ShutdownSignal()
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
            loader: SiteLoader(
                configuration: configuration,
                validator: validator,
                requestCounts: requestCounts,
                // A first load of many files validates on as many threads
                // as there are event loops: the cores the server is given.
                parallelism: Array(group.makeIterator()).count
            ),
            pollInterval: configuration.files.pollInterval,
            logger: logger
        )
    }

    /// The first load; in strict mode any invalid file is fatal.
    public func initialLoad() async throws(StartupError) {
        try await reloader.initialLoad(strict: configuration.files.strict)
    }

    /// The long-lived services, in start order. Call after ``initialLoad()``:
    /// with TLS on, the default certificate must have loaded.
    public func makeServices() throws(StartupError) -> [any Service] {
        let tlsContext = try makeTLSContext()
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
                childInitializer: servingPipeline(tlsContext: tlsContext),
                bound: httpAddress,
                shutdown: shutdown
            )
        )
        return services
    }

    private func servingPipeline(tlsContext: NIOSSLContext?) -> ListeningServer.ChildInitializer {
        let pipeline = ServingPipeline(
            store: store,
            limits: configuration.limits,
            accessLog: configuration.log.access ? logger : nil,
            requestCounts: requestCounts,
            tlsContext: tlsContext,
            shutdown: shutdown
        )
        let connections = ConnectionCounter(limit: configuration.limits.maxConnections)
        return { channel in
            channel.eventLoop.makeCompletedFuture {
                guard connections.acquire() else {
                    pipeline.refuse(channel)
                    return
                }
                channel.closeFuture.whenComplete { _ in connections.release() }
                try pipeline.configure(channel)
            }
        }
    }

    /// TLS 1.2+ with the default certificate; per-connection SNI picks the
    /// host's own certificate from the current snapshot, so certificates
    /// reload with the files.
    private func makeTLSContext() throws(StartupError) -> NIOSSLContext? {
        guard configuration.tls.isEnabled else { return nil }
        guard let identity = store.snapshot.identity(forServerName: nil) else {
            throw StartupError(
                message: "TLS is enabled but the default certificate (tls.certificate, tls.key) did not load"
            )
        }
        let store = self.store
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: identity.chain.map { .certificate($0) },
            privateKey: .privateKey(identity.key)
        )
        tls.minimumTLSVersion = .tlsv12
        tls.applicationProtocols = ["http/1.1"]
        tls.sslContextCallback = { values, promise in
            var override = NIOSSLContextConfigurationOverride()
            if let identity = store.snapshot.identity(forServerName: values.serverHostname) {
                override.certificateChain = identity.chain.map { .certificate($0) }
                override.privateKey = .privateKey(identity.key)
            }
            promise.succeed(override)
        }
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw StartupError(message: "TLS: \(error)")
        }
    }

    private var adminPipeline: ListeningServer.ChildInitializer {
        let store = self.store
        let registry = self.registry
        let requestCounts = self.requestCounts
        return { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                try channel.pipeline.syncOperations.addHandler(
                    AdminHandler(store: store, registry: registry, requestCounts: requestCounts)
                )
            }
        }
    }
}
