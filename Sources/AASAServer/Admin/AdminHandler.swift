import AASAKit
import Foundation
import NIOCore
import NIOHTTP1
import Prometheus

/// The admin port: `/healthz`, `/readyz`, `/metrics`, `/status`. Off the hot
/// path, so it encodes per request with NIO's `HTTPResponseEncoder`; the
/// ``ConnectionGuard`` in front gives it the serving port's limits. The
/// `/status` body is built off the event loop (see ``StatusCache``): the
/// loop serving this connection serves others too.
///
/// `/status` lists hosts, files and errors: on a listener reachable beyond
/// this host (``AdminPipeline/exposesStatus`` false) it answers 404, and
/// only the probes and metrics remain.
final class AdminHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Requests pipelined behind a `/status` still being built wait for
    /// it (answers go out in request order); past this many waiting the
    /// connection is dropped, so a client cannot queue answers without end.
    static let maximumWaiting = 16

    private struct Response {
        var status: HTTPResponseStatus
        var contentType: String
        var body: ByteBuffer

        init(status: HTTPResponseStatus, contentType: String, body: ByteBuffer) {
            self.status = status
            self.contentType = contentType
            self.body = body
        }

        init(status: HTTPResponseStatus, contentType: String, body: [UInt8]) {
            self.init(status: status, contentType: contentType, body: ByteBuffer(bytes: body))
        }
    }

    /// One request's answer, in request order; `response` is nil while a
    /// `/status` body is being built.
    private struct Reply {
        let id: Int
        let isHead: Bool
        let version: HTTPVersion
        let keepAlive: Bool
        var response: Response?
    }

    private let admin: AdminPipeline
    private let connection: ConnectionGuard
    private var request: HTTPRequestHead?
    private var replies: [Reply] = []
    private var nextID = 0
    /// A closing answer is queued or sent: later input is dropped.
    private var closing = false
    private var removed = false

    init(admin: AdminPipeline, connection: ConnectionGuard) {
        self.admin = admin
        self.connection = connection
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        removed = true
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = head
        case .body:
            break
        case .end:
            guard let head = request.take() else { return }
            guard replies.count < Self.maximumWaiting else {
                closing = true
                connection.abort()
                return
            }
            let id = nextID
            nextID += 1
            let response = respond(to: head)
            replies.append(
                Reply(id: id, isHead: head.method == .HEAD, version: head.version, keepAlive: head.isKeepAlive)
            )
            closing = !head.isKeepAlive
            if let response {
                answer(id, with: response, context: context)
            } else {
                buildStatus(for: id, context: context)
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard !closing else { return }
        let status: HTTPResponseStatus
        switch error {
        case HTTPParserError.headerOverflow: status = .requestHeaderFieldsTooLarge
        case is HTTPParserError, RequestHeadError.malformedRequestLine: status = .badRequest
        case RequestHeadError.requestLineTooLong: status = .uriTooLong
        default:
            closing = true
            connection.abort()
            return
        }
        closing = true
        let id = nextID
        nextID += 1
        replies.append(Reply(id: id, isHead: false, version: .http1_1, keepAlive: false))
        let body = Array("\(status.reasonPhrase.lowercased())\n".utf8)
        answer(id, with: Response(status: status, contentType: "text/plain", body: body), context: context)
    }

    /// The `/status` body comes from ``StatusCache`` (built off this event
    /// loop); the answer is written here when it is ready.
    /// The guard is told an answer is on its way, so that a client's
    /// half-close or a shutdown does not end the connection before it.
    private func buildStatus(for id: Int, context: ChannelHandlerContext) {
        connection.answerPending()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        admin.status.body(on: context.eventLoop).whenComplete { result in
            let (handler, context) = loopBound.value
            let response =
                switch result {
                case .success(let body): Response(status: .ok, contentType: "application/json", body: body)
                case .failure:
                    Response(
                        status: .serviceUnavailable,
                        contentType: "text/plain",
                        body: Array("status unavailable: the server is shutting down\n".utf8)
                    )
                }
            handler.answer(id, with: response, context: context)
            if !handler.removed { context.flush() }
            handler.connection.answerWritten()
        }
    }

    /// Records the answer to request `id` and sends every answer now due:
    /// those before it may still wait for a `/status` body.
    private func answer(_ id: Int, with response: Response, context: ChannelHandlerContext) {
        guard !removed, let index = replies.firstIndex(where: { $0.id == id }) else { return }
        replies[index].response = response
        while let reply = replies.first, let response = reply.response {
            replies.removeFirst()
            send(reply, response, context: context)
        }
    }

    private func send(_ reply: Reply, _ response: Response, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: response.contentType)
        headers.add(name: "Content-Length", value: String(response.body.readableBytes))
        headers.add(name: "Cache-Control", value: "no-store")
        if !reply.keepAlive { headers.add(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: reply.version, status: response.status, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !reply.isHead {
            context.write(wrapOutboundOut(.body(.byteBuffer(response.body))), promise: nil)
        }
        context.write(wrapOutboundOut(.end(nil)), promise: nil)
        if !reply.keepAlive {
            closing = true
            connection.finish()
        }
    }

    /// The answer, or nil for `/status`, whose body ``StatusCache`` builds.
    private func respond(to head: HTTPRequestHead) -> Response? {
        guard head.method == .GET || head.method == .HEAD else {
            return Response(
                status: .methodNotAllowed,
                contentType: "text/plain",
                body: Array("method not allowed\n".utf8)
            )
        }
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        switch path {
        case "/healthz":
            return Response(status: .ok, contentType: "text/plain", body: Array("ok\n".utf8))
        case "/readyz":
            return readiness
        case "/metrics":
            guard let registry = admin.registry else {
                return Response(
                    status: .notFound,
                    contentType: "text/plain",
                    body: Array("metrics are not enabled\n".utf8)
                )
            }
            return Response(
                status: .ok,
                contentType: "text/plain; version=0.0.4; charset=utf-8",
                body: registry.emitToBuffer() + Array(admin.requestCounts.render().utf8)
            )
        case "/status" where admin.exposesStatus:
            return nil
        case "/status":
            return Response(
                status: .notFound,
                contentType: "text/plain",
                body: Array("not found: /status is served on a loopback admin address only\n".utf8)
            )
        default:
            return Response(status: .notFound, contentType: "text/plain", body: Array("not found\n".utf8))
        }
    }

    /// Ready once the first load is done and at least one host is served:
    /// an origin with nothing to serve must not receive traffic.
    private var readiness: Response {
        guard admin.store.status.isReady else {
            return Response(
                status: .serviceUnavailable,
                contentType: "text/plain",
                body: Array("not ready: first load pending\n".utf8)
            )
        }
        guard !admin.store.snapshot.sites.isEmpty else {
            return Response(
                status: .serviceUnavailable,
                contentType: "text/plain",
                body: Array("not ready: no host is served\n".utf8)
            )
        }
        return Response(status: .ok, contentType: "text/plain", body: Array("ready\n".utf8))
    }
}
