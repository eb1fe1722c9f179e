import Logging
import NIOCore
import NIOHTTP1
import Prometheus

/// The handlers of one admin connection: the same ``ConnectionGuard`` as the
/// serving port (header and idle timeouts, one request at a time, bounded
/// input, the shutdown grace), NIO's HTTP/1 codec and ``AdminHandler``.
struct AdminPipeline: Sendable {
    let store: SiteStore
    let registry: PrometheusCollectorRegistry?
    let requestCounts: RequestCountTable
    let limits: ConnectionLimits
    let decoderLimits: NIOHTTPDecoderLimitConfiguration
    let shutdown: ShutdownSignal
    /// `/status` is answered only on a loopback listener.
    let exposesStatus: Bool
    /// The `/status` body, built off the event loops and kept per state.
    let status: StatusCache

    /// - Parameter willBuildStatus: called on the build thread before each
    ///   `/status` build (tests hold a build there to observe it).
    init(
        store: SiteStore,
        registry: PrometheusCollectorRegistry?,
        requestCounts: RequestCountTable,
        configuration: ServerConfiguration,
        listener: ServerConfiguration.Listener,
        shutdown: ShutdownSignal,
        descriptors: DescriptorPlan? = nil,
        willBuildStatus: @escaping @Sendable () -> Void = {}
    ) {
        self.store = store
        self.registry = registry
        self.requestCounts = requestCounts
        self.limits = ConnectionLimits(configuration.limits, shutdownGrace: configuration.shutdownGracePeriod)
        self.decoderLimits = ServingPipeline.decoderLimits(maxHeaderBytes: configuration.limits.maxHeaderBytes)
        self.shutdown = shutdown
        self.exposesStatus = listener.isLoopback
        let redactor = PathRedactor(root: configuration.files.directory)
        self.status = StatusCache(store: store) { snapshot, status in
            willBuildStatus()
            return StatusReport(snapshot: snapshot, status: status, redactor: redactor, descriptors: descriptors).body
        }
    }

    func configure(_ channel: any Channel) throws {
        let connection = ConnectionGuard(
            limits: limits,
            shutdown: shutdown,
            log: ConnectionLog(logger: nil),
            handshake: false,
            eventLoop: channel.eventLoop
        )
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(connection)
        try pipeline.addHandler(
            ByteToMessageHandler(
                HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, limitConfiguration: decoderLimits),
                maximumBufferSize: ServingPipeline.maximumUnparsedBytes
            )
        )
        try pipeline.addHandler(HTTPResponseEncoder())
        try pipeline.addHandler(AdminHandler(admin: self, connection: connection))
    }
}

extension ServerConfiguration.Listener {
    /// Bound to a loopback address (`127.0.0.0/8`, `::1`, `localhost`):
    /// reachable from this host only. A wildcard (`0.0.0.0`, `::`) or any
    /// other address is reachable from elsewhere.
    var isLoopback: Bool {
        if bind == "localhost" { return true }
        guard let address = try? SocketAddress(ipAddress: bind, port: 0), let ip = address.ipAddress else {
            return false
        }
        return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }
}
