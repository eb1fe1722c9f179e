import Logging
import NIOCore
import NIOHTTP1
import NIOSSL

/// The handlers of one serving connection: NIO's HTTP/1 request decoder with
/// our header limits (wrapped to time the header timeout), and the handler
/// writing pre-encoded responses. Shared by the listener and the
/// pipeline tests, which run it on an embedded channel.
struct ServingPipeline: Sendable {
    let store: SiteStore
    let responder = Responder()
    let accessLog: Logger?
    let decoderLimits: NIOHTTPDecoderLimitConfiguration
    let headerTimeout: TimeAmount
    let idleTimeout: TimeAmount
    let idleShutdownGrace: TimeAmount
    /// Counts for requests no host answers (`host="unknown"`).
    let unknownHostCounts: RequestCounts
    let tlsContext: NIOSSLContext?
    let shutdown: ShutdownSignal

    init(
        store: SiteStore,
        limits: ServerConfiguration.Limits,
        accessLog: Logger?,
        requestCounts: RequestCountTable = RequestCountTable(),
        tlsContext: NIOSSLContext? = nil,
        shutdown: ShutdownSignal = ShutdownSignal()
    ) {
        self.store = store
        self.shutdown = shutdown
        self.unknownHostCounts = requestCounts.counts(for: "unknown")
        self.accessLog = accessLog
        self.tlsContext = tlsContext
        var decoderLimits = NIOHTTPDecoderLimitConfiguration()
        // The whole head (request line and fields) counts against the limit.
        decoderLimits.maxHeaderFieldSize = limits.maxHeaderBytes
        decoderLimits.maxHeaderListSize = limits.maxHeaderBytes
        self.decoderLimits = decoderLimits
        self.headerTimeout = TimeAmount(limits.headerTimeout)
        self.idleTimeout = TimeAmount(limits.idleTimeout)
        self.idleShutdownGrace = TimeAmount(limits.idleShutdownGrace)
    }

    /// Bytes the HTTP decoder may hold without parsing them.
    static let maximumUnparsedBytes = 64 * 1024

    func configure(_ channel: any Channel) throws {
        let timeouts = ConnectionTimeouts(
            eventLoop: channel.eventLoop,
            headerTimeout: headerTimeout,
            idleTimeout: idleTimeout
        )
        let pipeline = channel.pipeline.syncOperations
        if let tlsContext {
            try pipeline.addHandler(NIOSSLServerHandler(context: tlsContext))
        }
        try pipeline.addHandler(
            ByteToMessageHandler(
                TimedRequestDecoder(
                    HTTPRequestDecoder(
                        leftOverBytesStrategy: .dropBytes,
                        informationalResponseStrategy: .drop,
                        limitConfiguration: decoderLimits
                    ),
                    timeouts: timeouts
                ),
                // The decoder consumes every byte it parses; only bytes it
                // stopped parsing (after an upgrade) pile up here. Past the
                // cap the connection fails and closes.
                maximumBufferSize: Self.maximumUnparsedBytes
            )
        )
        try pipeline.addHandler(
            AASARequestHandler(
                store: store,
                responder: responder,
                timeouts: timeouts,
                idleShutdownGrace: idleShutdownGrace,
                shutdown: shutdown,
                accessLog: accessLog,
                unknownHostCounts: unknownHostCounts
            )
        )
    }

    /// Over the connection cap: one cheap 503 and close, before any parsing.
    func refuse(_ channel: any Channel) {
        let response = responder.overloaded
        var bytes = ByteBuffer()
        bytes.writeStaticString(response.status.statusLine)
        bytes.writeStaticString(response.connection.headerLine)
        bytes.writeImmutableBuffer(response.bytes)
        channel.writeAndFlush(bytes).whenComplete { _ in channel.close(promise: nil) }
    }
}
