import Logging
import NIOCore
import NIOHTTP1

/// The serving connection's application handler: takes NIO's decoded request
/// parts and writes pre-encoded bytes straight to the socket.
///
/// It sits directly after `HTTPRequestDecoder` (no `HTTPResponseEncoder`):
/// every response is already bytes, so encoding a head per request would be
/// pure overhead. ``ConnectionGuard`` in front hands the decoder one request
/// at a time and owns timeouts, backpressure and closing; this handler only
/// answers, in order, and says when an answer ends the connection.
final class AASARequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    private let store: SiteStore
    private let responder: Responder
    private let connection: ConnectionGuard
    private let log: ConnectionLog
    private let unknownHostCounts: RequestCounts
    /// The event loop's, shared with its other connections.
    private let cache: ResponseCache

    private var pending: Responder.Reply?
    /// The request being answered, for the access log (only kept when logging).
    private var request: AccessLogRequest?
    private var closing = false

    init(
        store: SiteStore,
        responder: Responder,
        connection: ConnectionGuard,
        log: ConnectionLog,
        unknownHostCounts: RequestCounts,
        cache: ResponseCache
    ) {
        self.cache = cache
        self.store = store
        self.responder = responder
        self.connection = connection
        self.log = log
        self.unknownHostCounts = unknownHostCounts
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            let reply = responder.respond(to: head, snapshot: store.snapshot)
            if log.logger != nil { request = AccessLogRequest(head) }
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

    /// Not passed on: this is the pipeline's last handler, and the event
    /// would only walk to NIO's tail, which ignores it.
    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard !closing else { return }
        let response: EncodedResponse
        switch error {
        case let parserError as HTTPParserError:
            response = responder.parserFailure(parserError)
        case RequestHeadError.requestLineTooLong:
            response = responder.statics.uriTooLong[.close]
        case RequestHeadError.malformedRequestLine:
            response = responder.statics.badRequest[.close]
        default:
            // Not a request problem (a decoder buffer overflow, a socket
            // error): nothing useful can be said to the client.
            closing = true
            connection.abort()
            return
        }
        // Whatever head was being read is not the one that failed.
        pending = nil
        request = nil
        write(Responder.Reply(response: response, counts: nil, isHead: false), context: context, error: error)
    }

    // MARK: Writing

    private func write(_ reply: Responder.Reply, context: ChannelHandlerContext, error: Error? = nil) {
        let response = reply.response
        (reply.counts ?? unknownHostCounts).increment(response.status)
        let payload = response.payload(isHead: reply.isHead)
        if let logger = log.logger {
            AccessLogLine(
                client: log.client,
                request: request.take(),
                status: response.status,
                bytes: payload.readableBytes,
                error: error
            ).emit(to: logger)
        }
        if payload.readableBytes <= ResponseCache.coalescingLimit {
            context.write(wrapOutboundOut(cache.whole(response, payload: payload)), promise: nil)
        } else {
            context.write(wrapOutboundOut(cache.prefix(of: response)), promise: nil)
            context.write(wrapOutboundOut(payload), promise: nil)
        }
        if response.closesConnection {
            closing = true
            connection.finish()
        }
    }
}
