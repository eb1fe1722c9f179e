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
    private let group: any EventLoopGroup
    /// The most bytes any serving connection held queued (the abuse tests read it).
    let queuedBytes = QueuedBytesProbe()

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
            loader: SiteLoader(configuration: configuration, validator: validator, requestCounts: requestCounts),
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
            if !admin.isLoopback {
                logger.warning(
                    "the admin listener is reachable beyond this host; it serves /healthz, /readyz and /metrics there, not /status",
                    metadata: ["server": "admin", "bind": "\(admin.bind)"]
                )
            }
            let shutdown = ShutdownSignal()
            let pipeline = AdminPipeline(
                store: store,
                registry: registry,
                requestCounts: requestCounts,
                configuration: configuration,
                listener: admin,
                shutdown: shutdown
            )
            services.append(
                ListeningServer(
                    name: "admin",
                    listener: admin,
                    group: group,
                    logger: logger,
                    admission: admission(listener: "admin", limit: configuration.adminMaxConnections),
                    childInitializer: pipeline.configure,
                    bound: adminAddress,
                    shutdown: shutdown
                )
            )
        }
        let shutdown = ShutdownSignal()
        let pipeline = ServingPipeline(
            store: store,
            limits: configuration.limits,
            shutdownGrace: configuration.shutdownGracePeriod,
            accessLog: configuration.log.access ? logger : nil,
            requestCounts: requestCounts,
            tlsContext: tlsContext,
            shutdown: shutdown,
            probe: queuedBytes
        )
        services.append(
            ListeningServer(
                name: "http",
                listener: configuration.http,
                group: group,
                logger: logger,
                admission: admission(listener: "http", limit: configuration.limits.maxConnections),
                childInitializer: pipeline.configure,
                bound: httpAddress,
                shutdown: shutdown
            )
        )
        return services
    }

    private func admission(listener: String, limit: Int) -> ConnectionAdmission {
        ConnectionAdmission(listener: listener, limit: limit, logger: logger, registry: registry)
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
}
