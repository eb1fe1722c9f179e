import NIOCore

/// The bounds every connection lives under, serving and admin alike: how
/// long each phase may take and how many bytes it may hold.
///
/// Memory per connection is bounded by ``outputWaterMark``'s high mark plus
/// one response (the write that crosses it), plus ``inputBudget`` of requests
/// held unparsed, plus one socket read; ``ConnectionGuard`` enforces both.
struct ConnectionLimits: Sendable {
    /// From a request head's first byte (or a TLS connection's start) until
    /// the head (or the handshake) is complete.
    var headerTimeout: TimeAmount
    /// Between requests on a keep-alive connection.
    var idleTimeout: TimeAmount
    /// How long queued responses may go without any of them reaching the
    /// socket (a client that does not read) before the connection is dropped.
    var sendTimeout: TimeAmount
    /// After shutdown begins, how long an idle connection may still send a request.
    var idleShutdownGrace: TimeAmount
    /// After shutdown begins, when every connection is closed, busy or not.
    var shutdownGrace: TimeAmount
    /// The longest request line (414 past it); also NIO's head limit (431).
    var maxHeaderBytes: Int
    /// Request bytes held unparsed while responses wait to be sent; a client
    /// pipelining past this without reading is disconnected.
    var inputBudget: Int
    /// After the last response of a closing connection has been sent and the
    /// write side shut, how long its input is read and dropped before the
    /// socket is closed: closing with unread input would make the kernel
    /// send a reset and discard responses the client has not read yet.
    var lingerTime: TimeAmount

    /// Responses queued past `high` stop the connection from parsing more
    /// requests until they drain below `low`. NIO's defaults, stated here
    /// because the memory bound depends on them.
    static let outputWaterMark = ChannelOptions.Types.WriteBufferWaterMark(low: 32 * 1024, high: 64 * 1024)

    /// The smallest `inputBudget`: room for a few pipelined heads.
    static let minimumInputBudget = 32 * 1024

    init(
        headerTimeout: TimeAmount,
        idleTimeout: TimeAmount,
        sendTimeout: TimeAmount,
        idleShutdownGrace: TimeAmount,
        shutdownGrace: TimeAmount,
        maxHeaderBytes: Int,
        lingerTime: TimeAmount = .seconds(2)
    ) {
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.sendTimeout = sendTimeout
        self.idleShutdownGrace = idleShutdownGrace
        self.shutdownGrace = shutdownGrace
        self.maxHeaderBytes = maxHeaderBytes
        // At least two heads of the largest allowed size.
        self.inputBudget = max(Self.minimumInputBudget, 2 * maxHeaderBytes)
        self.lingerTime = lingerTime
    }

    init(_ limits: ServerConfiguration.Limits, shutdownGrace: Duration) {
        self.init(
            headerTimeout: TimeAmount(limits.headerTimeout),
            idleTimeout: TimeAmount(limits.idleTimeout),
            sendTimeout: TimeAmount(limits.sendTimeout),
            idleShutdownGrace: TimeAmount(limits.idleShutdownGrace),
            shutdownGrace: TimeAmount(shutdownGrace),
            maxHeaderBytes: limits.maxHeaderBytes
        )
    }

    /// How often a connection's timer wakes to look at its clocks: a
    /// deadline that moves earlier (a head starting) is enforced within
    /// one interval, with no scheduling per request.
    var checkInterval: TimeAmount {
        min(headerTimeout, idleTimeout, sendTimeout)
    }

    /// The most bytes one connection may hold queued: responses up to the
    /// high water mark plus the one that crossed it, and its input budget.
    func queuedBytesBound(largestResponse: Int) -> Int {
        Self.outputWaterMark.high + largestResponse + inputBudget
    }
}
