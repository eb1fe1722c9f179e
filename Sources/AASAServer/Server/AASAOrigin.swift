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
    /// Resolves once the HTTPS port is listening; never when it is off.
    public let httpsAddress = BoundAddress()
    /// Resolves once the admin port is listening; never when it is disabled.
    public let adminAddress = BoundAddress()

    private let logger: Logger
    private let registry: PrometheusCollectorRegistry?
    private let requestCounts = RequestCountTable()
    private let group: any EventLoopGroup
    /// The most bytes any serving connection held queued (the abuse tests read it).
    let queuedBytes = QueuedBytesProbe()
    /// The open-file limit and the connection caps that fit it.
    let descriptors: DescriptorPlan
    /// Called before each `/status` build (a test seam; see ``AdminPipeline``).
    private let willBuildStatus: @Sendable () -> Void
    /// How long a refusal warning (connection cap, TLS handshake) stands
    /// for the refusals after it.
    private let refusalLogInterval: TimeAmount

    /// Also raises the process's open-file limit if the connection caps
    /// need more (see ``DescriptorBudget``), before anything is loaded.
    public init(
        configuration: ServerConfiguration,
        logger: Logger,
        registry: PrometheusCollectorRegistry? = nil,
        validator: AASAValidator = AASAValidator(),
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.init(
            configuration: configuration,
            logger: logger,
            registry: registry,
            validator: validator,
            group: group,
            descriptorLimit: .system
        )
    }

    /// - Parameter descriptorLimit: where the open-file limit is read and
    ///   raised (tests pass a stand-in).
    /// - Parameter willBuildStatus: called on the build thread before each
    ///   `/status` build (tests hold a build there to observe it).
    /// - Parameter refusalLogInterval: how long a refusal warning stands for
    ///   the refusals after it (tests that count lines pass one no run
    ///   reaches: the lines then do not depend on how fast the run went).
    init(
        configuration: ServerConfiguration,
        logger: Logger,
        registry: PrometheusCollectorRegistry? = nil,
        validator: AASAValidator = AASAValidator(),
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        descriptorLimit: DescriptorLimit.Source,
        willBuildStatus: @escaping @Sendable () -> Void = {},
        refusalLogInterval: TimeAmount = RateLimitedLog.defaultInterval
    ) {
        self.willBuildStatus = willBuildStatus
        self.refusalLogInterval = refusalLogInterval
        let eventLoops = Array(group.makeIterator()).count
        self.descriptors = DescriptorBudget(configuration: configuration, eventLoops: eventLoops)
            .settle(descriptorLimit)
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
                parallelism: eventLoops
            ),
            pollInterval: configuration.files.pollInterval,
            logger: logger
        )
    }

    /// Fails when the open-file limit cannot hold the descriptor reserve
    /// and one connection per listener (``initialLoad()`` checks it too;
    /// `aasa serve` asks first to exit with 2).
    public func checkDescriptors() throws(DescriptorShortage) {
        if let shortage = descriptors.shortage { throw shortage }
    }

    /// The first load; in strict mode any invalid file is fatal. Logs the
    /// descriptor budget first (a raised limit, caps lowered to fit it).
    public func initialLoad() async throws(StartupError) {
        do {
            try checkDescriptors()
        } catch {
            throw StartupError(message: error.description)
        }
        descriptors.log(to: logger)
        try await reloader.initialLoad(strict: configuration.files.strict)
    }

    /// The long-lived services, in start order. Call after ``initialLoad()``:
    /// with HTTPS on, a configured default certificate must have loaded.
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
                shutdown: shutdown,
                descriptors: descriptors,
                willBuildStatus: willBuildStatus
            )
            services.append(
                ListeningServer(
                    name: "admin",
                    listener: admin,
                    group: group,
                    logger: logger,
                    admission: admission(
                        listener: "admin",
                        limit: descriptors.effectiveAdminMaxConnections ?? configuration.adminMaxConnections
                    ),
                    childInitializer: pipeline.configure,
                    bound: adminAddress,
                    shutdown: shutdown
                )
            )
        }
        let shutdown = ShutdownSignal()
        // One connection cap for both serving ports (it bounds descriptors,
        // and is lowered when the open-file limit needs it), counted under
        // listener="http".
        let admission = admission(listener: "http", limit: descriptors.effectiveMaxConnections)
        services.append(
            ListeningServer(
                name: "http",
                listener: configuration.http,
                group: group,
                logger: logger,
                admission: admission,
                childInitializer: servingPipeline(tlsContext: nil, shutdown: shutdown).configure,
                bound: httpAddress,
                shutdown: shutdown
            )
        )
        if let https = configuration.https, let tlsContext {
            services.append(
                ListeningServer(
                    name: "https",
                    listener: https,
                    group: group,
                    logger: logger,
                    admission: admission,
                    childInitializer: servingPipeline(tlsContext: tlsContext, shutdown: shutdown).configure,
                    bound: httpsAddress,
                    shutdown: shutdown
                )
            )
        }
        return services
    }

    private func servingPipeline(tlsContext: NIOSSLContext?, shutdown: ShutdownSignal) -> ServingPipeline {
        ServingPipeline(
            store: store,
            limits: configuration.limits,
            shutdownGrace: configuration.shutdownGracePeriod,
            accessLog: configuration.log.access ? logger : nil,
            requestCounts: requestCounts,
            tlsContext: tlsContext,
            shutdown: shutdown,
            probe: queuedBytes
        )
    }

    private func admission(listener: String, limit: Int) -> ConnectionAdmission {
        ConnectionAdmission(
            listener: listener,
            limit: limit,
            logger: logger,
            registry: registry,
            logInterval: refusalLogInterval
        )
    }

    /// The HTTPS listener's context (TLS 1.2+, a certificate per SNI name;
    /// see ``SNICertificates``), or nil without `https.port`.
    private func makeTLSContext() throws(StartupError) -> NIOSSLContext? {
        guard configuration.https != nil else {
            if configuration.tls.isEnabled {
                throw StartupError(
                    message: "tls.certificate is set but https.port is not: set https.port (--tls-port) to serve HTTPS"
                )
            }
            return nil
        }
        let snapshot = store.snapshot
        if configuration.tls.isEnabled, snapshot.identity(forServerName: nil) == nil {
            throw StartupError(message: "HTTPS: the default certificate (tls.certificate, tls.key) did not load")
        }
        let lacking = snapshot.sites.values.filter { $0.tls == nil }.map(\.name)
        if !configuration.tls.isEnabled {
            guard snapshot.sites.values.contains(where: { $0.tls != nil }) else {
                throw StartupError(
                    message: "https.port is set but there is no certificate: no tls.certificate and no host has "
                        + "<dir>/<host>/tls/cert.pem (make them with `aasa dev-cert`)"
                )
            }
            if !lacking.isEmpty {
                logger.warning(
                    "HTTPS handshakes for these hosts will fail: no certificate of their own and no default (tls.certificate)",
                    metadata: ["hosts": "\(Set(lacking).sorted().joined(separator: ","))"]
                )
            }
        }
        return try SNICertificates(store: store, logger: logger, refusalLogInterval: refusalLogInterval).makeContext()
    }
}
