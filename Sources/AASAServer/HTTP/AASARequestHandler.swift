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
        guard !closing, case .head(let head) = unwrapInboundIn(data) else { return }
        // Answered at the head: a request with a body is refused here, so
        // every request answered has none, and NIO's decoder delivers its
        // `.end` at once, in the same parse. Nothing is kept until then.
        let snapshot = store.snapshot
        let reply = cache.unretainedHosts._withUnsafeGuaranteedRef { hosts in
            responder.respond(to: head, snapshot: snapshot, hosts: hosts)
        }
        write(reply, request: log.logger == nil ? nil : AccessLogRequest(head), context: context)
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
        write(
            Responder.Reply(response: response, counts: nil, isHead: false),
            request: nil,
            context: context,
            error: error
        )
    }

    // MARK: Writing

    /// - Parameter request: the request line for the access log, when logging.
    private func write(
        _ reply: Responder.Reply,
        request: AccessLogRequest?,
        context: ChannelHandlerContext,
        error: Error? = nil
    ) {
        let response = reply.response
        (reply.counts ?? unknownHostCounts).increment(response.status)
        let length = response.payloadLength(isHead: reply.isHead)
        if let logger = log.logger {
            AccessLogLine(
                client: log.client,
                request: request,
                status: response.status,
                bytes: length,
                error: error
            ).emit(to: logger)
        }
        if length <= ResponseCache.coalescingLimit {
            // One expression: a local would be retained into the write.
            context.write(
                wrapOutboundOut(cache.whole(response, isHead: reply.isHead, slot: reply.hostSlot)),
                promise: nil
            )
        } else {
            context.write(wrapOutboundOut(cache.prefix(of: response)), promise: nil)
            context.write(wrapOutboundOut(response.payload(isHead: reply.isHead)), promise: nil)
        }
        if response.closesConnection {
            closing = true
            connection.finish()
        }
    }
}
