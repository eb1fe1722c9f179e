import Logging
import NIOCore
import NIOExtras
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The serving connection's application handler: takes NIO's decoded request
/// parts and writes pre-encoded bytes straight to the socket.
///
/// It sits directly after `HTTPRequestDecoder` (no `HTTPResponseEncoder`):
/// every response is already bytes, so encoding a head per request would be
/// pure overhead. Requests are answered in order as they complete, which is
/// all HTTP/1.1 pipelining needs; reading pauses while the socket is not
/// writable, so a client that pipelines without reading cannot grow memory.
///
/// It is inbound-only on purpose: an outbound handler sits on every `read`,
/// `write` and `flush` of the connection, so backpressure toggles the
/// channel's `autoRead` instead of intercepting `read`.
final class AASARequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    private let store: SiteStore
    private let responder: Responder
    private let timeouts: ConnectionTimeouts
    /// How long an idle connection may still send a request after shutdown begins.
    private let idleShutdownGrace: TimeAmount
    private let shutdown: ShutdownSignal
    private let accessLog: Logger?
    private let unknownHostCounts: RequestCounts
    private var dateLine = DateLine()
    private let allocator = ByteBufferAllocator()

    private var pending: Responder.Reply?
    private var requestStart: NIODeadline?
    private var requestTarget = ""
    private var requestHost: String?
    private var quiescing = false
    private var closing = false

    init(
        store: SiteStore,
        responder: Responder,
        timeouts: ConnectionTimeouts,
        idleShutdownGrace: TimeAmount,
        shutdown: ShutdownSignal,
        accessLog: Logger?,
        unknownHostCounts: RequestCounts
    ) {
        self.store = store
        self.responder = responder
        self.timeouts = timeouts
        self.idleShutdownGrace = idleShutdownGrace
        self.shutdown = shutdown
        self.accessLog = accessLog
        self.unknownHostCounts = unknownHostCounts
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { connectionStarted(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        connectionStarted(context: context)
        context.fireChannelActive()
    }

    private func connectionStarted(context: ChannelHandlerContext) {
        timeouts.start(context: context)
        if shutdown.hasBegun { beginQuiescing(context: context) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        timeouts.stop()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            let reply = responder.respond(to: head, snapshot: store.snapshot)
            if accessLog != nil {
                requestStart = .now()
                requestTarget = head.uri
                requestHost = head.headers.first(name: "host")
            }
            if reply.response.closesConnection, reply.response.status == .badRequest {
                // A body we will not read: answer now and stop reading.
                write(reply, context: context)
            } else {
                pending = reply
            }
        case .body:
            break
        case .end:
            guard let reply = pending.take() else { return }
            write(reply, context: context)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard !closing else { return }
        if let parserError = error as? HTTPParserError {
            let response = responder.parserFailure(parserError)
            write(Responder.Reply(response: response, counts: nil, isHead: false), context: context)
        } else {
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            beginQuiescing(context: context)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Graceful shutdown: a busy connection closes after its response; an
    /// idle one after a short grace, so a request already on the wire but not
    /// yet read is still answered rather than reset.
    private func beginQuiescing(context: ChannelHandlerContext) {
        guard !quiescing else { return }
        quiescing = true
        guard !timeouts.requestInProgress && pending == nil else { return }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: idleShutdownGrace) {
            let (handler, context) = loopBound.value
            if !handler.timeouts.requestInProgress && handler.pending == nil && !handler.closing {
                handler.closing = true
                context.close(promise: nil)
            }
        }
    }

    // MARK: Backpressure

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        // Rare (a client not reading its responses): the channel stops and
        // resumes reading itself.
        try? context.channel.syncOptions?.setOption(.autoRead, value: context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    // MARK: Writing

    /// Responses up to this size are copied behind their status line and
    /// `Date` into one buffer: a copy this small costs less than a second
    /// write through the pipeline. Larger ones go out as two writes.
    static let coalescingLimit = 16 * 1024

    private func write(_ reply: Responder.Reply, context: ChannelHandlerContext) {
        let response = reply.response
        (reply.counts ?? unknownHostCounts).increment(response.status)
        let payload = response.payload(isHead: reply.isHead)
        logAccess(response: response, bytes: payload.readableBytes)
        timeouts.requestCompleted()
        dateLine.refresh()
        let prefixLength =
            response.status.statusLine.utf8CodeUnitCount + dateLine.bytes.readableBytes
            + response.connection.headerLine.utf8CodeUnitCount
        var bytes: ByteBuffer
        if payload.readableBytes <= Self.coalescingLimit {
            bytes = allocator.buffer(capacity: prefixLength + payload.readableBytes)
            dateLine.writePrefix(of: response, into: &bytes)
            bytes.writeImmutableBuffer(payload)
        } else {
            var prefix = allocator.buffer(capacity: prefixLength)
            dateLine.writePrefix(of: response, into: &prefix)
            context.write(wrapOutboundOut(prefix), promise: nil)
            bytes = payload
        }
        if response.closesConnection || quiescing {
            closing = true
            context.writeAndFlush(wrapOutboundOut(bytes)).whenComplete { _ in
                context.close(promise: nil)
            }
        } else {
            context.write(wrapOutboundOut(bytes), promise: nil)
        }
    }

    private func logAccess(response: EncodedResponse, bytes: Int) {
        guard let accessLog else { return }
        let duration = requestStart.map { NIODeadline.now() - $0 } ?? .zero
        accessLog.info(
            "request",
            metadata: [
                "http.host": "\(requestHost ?? "-")",
                "http.target": "\(requestTarget)",
                "http.status": "\(response.status.rawValue)",
                "http.bytes": "\(bytes)",
                "http.duration_us": "\(duration.nanoseconds / 1000)",
            ]
        )
    }
}

/// The `Date` header line, rebuilt when the second changes: with the status
/// line (a constant) the only bytes of a response not fixed at load time.
struct DateLine {
    private var second = -1
    private(set) var bytes = ByteBuffer()

    @inline(__always)
    mutating func refresh() {
        let now = time(nil)
        if now != second {
            second = now
            bytes = ByteBuffer(string: "Date: \(HTTPDate.format(epochSeconds: now))\r\n")
        }
    }

    /// Writes `response`'s status line, this `Date` line and its `Connection` line.
    @inline(__always)
    func writePrefix(of response: EncodedResponse, into buffer: inout ByteBuffer) {
        buffer.writeStaticString(response.status.statusLine)
        buffer.writeImmutableBuffer(bytes)
        buffer.writeStaticString(response.connection.headerLine)
    }
}
