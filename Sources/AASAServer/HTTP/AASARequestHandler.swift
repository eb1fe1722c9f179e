import Logging
import NIOCore
import NIOHTTP1

/// The serving connection's application handler: takes NIO's decoded request
/// parts and writes pre-encoded bytes straight to the socket.
///
/// It sits directly after `HTTPRequestDecoder` (no `HTTPResponseEncoder`):
/// every response is already bytes, so encoding a head per request would be
/// pure overhead. ``ConnectionGuard`` in front hands the decoder one request
/// at a time and owns timeouts, backpressure, flushing and closing; this
/// handler only answers, in order, and says when an answer ends the
/// connection.
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
        let answer = cache.unretainedHosts._withUnsafeGuaranteedRef { hosts in
            hosts.withSnapshot(of: store) { snapshot in responder.answer(to: head, snapshot: snapshot, hosts: hosts) }
        }
        let request = log.logger == nil ? nil : AccessLogRequest(head)
        switch answer {
        case .reply(let reply): write(reply, request: request, context: context)
        case .known(let slot, let isHead): write(knownAt: slot, isHead: isHead, request: request, context: context)
        }
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
        logLine(status: response.status, bytes: length, request: request, error: error)
        if length <= ResponseCache.coalescingLimit {
            // One expression: a local would be retained into the write.
            context.write(wrapOutboundOut(cache.whole(response, isHead: reply.isHead)), promise: nil)
        } else {
            context.write(wrapOutboundOut(cache.prefix(of: response)), promise: nil)
            context.write(wrapOutboundOut(response.payload(isHead: reply.isHead)), promise: nil)
        }
        if response.closesConnection { finish() }
    }

    /// Writes the answer `slot` of the loop's ``HostTable`` knows, reading
    /// it in place: with Host rotating, the response and counts a reply
    /// would retain sit in cache lines no recent request touched.
    private func write(knownAt slot: Int, isHead: Bool, request: AccessLogRequest?, context: ChannelHandlerContext) {
        let facts = cache.unretainedHosts._withUnsafeGuaranteedRef { $0.facts(knownAt: slot, isHead: isHead) }
        guard facts.length <= ResponseCache.coalescingLimit else {
            // Written in two buffers, as a reply.
            let reply = cache.unretainedHosts._withUnsafeGuaranteedRef { $0.reply(knownAt: slot, isHead: isHead) }
            return write(reply, request: request, context: context)
        }
        if let counts = facts.counts {
            counts._withUnsafeGuaranteedRef { $0.increment(facts.status) }
        } else {
            unknownHostCounts.increment(facts.status)
        }
        logLine(status: facts.status, bytes: facts.length, request: request, error: nil)
        context.write(wrapOutboundOut(cache.whole(knownAt: slot, isHead: isHead)), promise: nil)
        if facts.closesConnection { finish() }
    }

    private func logLine(status: EncodedResponse.Status, bytes: Int, request: AccessLogRequest?, error: Error?) {
        guard let logger = log.logger else { return }
        AccessLogLine(client: log.client, request: request, status: status, bytes: bytes, error: error).emit(to: logger)
    }

    /// The answer just written ends the connection.
    private func finish() {
        closing = true
        connection.finish()
    }
}
