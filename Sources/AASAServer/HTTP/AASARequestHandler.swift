import Logging
import NIOCore
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
    private var dateLine = DateLine()
    private let allocator = ByteBufferAllocator()

    private var pending: Responder.Reply?
    /// The request being answered, for the access log (only kept when logging).
    private var request: AccessLogRequest?
    private var closing = false

    init(
        store: SiteStore,
        responder: Responder,
        connection: ConnectionGuard,
        log: ConnectionLog,
        unknownHostCounts: RequestCounts
    ) {
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

    /// Responses up to this size are copied behind their status line and
    /// `Date` into one buffer: a copy this small costs less than a second
    /// write through the pipeline. Larger ones go out as two writes.
    static let coalescingLimit = 16 * 1024

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
        context.write(wrapOutboundOut(bytes), promise: nil)
        if response.closesConnection {
            closing = true
            connection.finish()
        }
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
            // Rewritten in its own storage: the line is only ever copied out.
            bytes.clear()
            bytes.writeStaticString("Date: ")
            HTTPDate.write(epochSeconds: now, into: &bytes)
            bytes.writeStaticString("\r\n")
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
