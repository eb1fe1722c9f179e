import Logging
import NIOCore
import NIOHTTP1
import NIOSSL

/// The handlers of one serving connection: TLS if configured, the
/// ``ConnectionGuard`` (limits, timeouts, closing), NIO's HTTP/1 request
/// decoder with our header limits, and the handler writing pre-encoded
/// responses. Shared by the listener and the pipeline tests, which run it
/// on an embedded channel.
struct ServingPipeline: Sendable {
    let store: SiteStore
    let responder = Responder()
    let accessLog: Logger?
    let decoderLimits: NIOHTTPDecoderLimitConfiguration
    let limits: ConnectionLimits
    /// Counts for requests no host answers (`host="unknown"`).
    let unknownHostCounts: RequestCounts
    let tlsContext: NIOSSLContext?
    let shutdown: ShutdownSignal
    let probe: QueuedBytesProbe?
    /// Each event loop's responses of the current second, shared by its connections.
    let responseCaches = ResponseCaches()

    init(
        store: SiteStore,
        limits: ServerConfiguration.Limits,
        shutdownGrace: Duration = ServerConfiguration().shutdownGracePeriod,
        accessLog: Logger?,
        requestCounts: RequestCountTable = RequestCountTable(),
        tlsContext: NIOSSLContext? = nil,
        shutdown: ShutdownSignal = ShutdownSignal(),
        probe: QueuedBytesProbe? = nil
    ) {
        self.store = store
        self.shutdown = shutdown
        self.unknownHostCounts = requestCounts.counts(for: "unknown")
        self.accessLog = accessLog
        self.tlsContext = tlsContext
        self.probe = probe
        self.decoderLimits = Self.decoderLimits(maxHeaderBytes: limits.maxHeaderBytes)
        self.limits = ConnectionLimits(limits, shutdownGrace: shutdownGrace)
    }

    /// The whole head (request line and fields) counts against the limit.
    static func decoderLimits(maxHeaderBytes: Int) -> NIOHTTPDecoderLimitConfiguration {
        var decoderLimits = NIOHTTPDecoderLimitConfiguration()
        decoderLimits.maxHeaderFieldSize = maxHeaderBytes
        decoderLimits.maxHeaderListSize = maxHeaderBytes
        return decoderLimits
    }

    /// Bytes the HTTP decoder may hold without parsing them: the guard hands
    /// it one head at a time and it consumes each whole; only bytes it
    /// stopped parsing (after an upgrade request) could pile up here.
    static let maximumUnparsedBytes = 64 * 1024

    func configure(_ channel: any Channel) throws {
        let log = ConnectionLog(logger: accessLog)
        let connection = ConnectionGuard(
            limits: limits,
            shutdown: shutdown,
            log: log,
            handshake: tlsContext != nil,
            eventLoop: channel.eventLoop,
            probe: probe
        )
        let pipeline = channel.pipeline.syncOperations
        if let tlsContext {
            try pipeline.addHandler(NIOSSLServerHandler(context: tlsContext))
        }
        try pipeline.addHandler(connection)
        try pipeline.addHandler(
            ByteToMessageHandler(
                HTTPRequestDecoder(
                    leftOverBytesStrategy: .dropBytes,
                    informationalResponseStrategy: .drop,
                    limitConfiguration: decoderLimits
                ),
                maximumBufferSize: Self.maximumUnparsedBytes
            )
        )
        try pipeline.addHandler(
            AASARequestHandler(
                store: store,
                responder: responder,
                connection: connection,
                log: log,
                unknownHostCounts: unknownHostCounts,
                cache: responseCaches.cache(for: channel.eventLoop)
            )
        )
    }
}
