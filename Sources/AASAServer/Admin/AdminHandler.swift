import AASAKit
import Foundation
import NIOCore
import NIOHTTP1
import Prometheus

/// The admin port: `/healthz`, `/readyz`, `/metrics`, `/status`. Off the hot
/// path, so it encodes per request with NIO's `HTTPResponseEncoder`; the
/// ``ConnectionGuard`` in front gives it the serving port's limits.
///
/// `/status` lists hosts, files and errors: on a listener reachable beyond
/// this host (``AdminPipeline/exposesStatus`` false) it answers 404, and
/// only the probes and metrics remain.
final class AdminHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let admin: AdminPipeline
    private let connection: ConnectionGuard
    private var request: HTTPRequestHead?
    private var closing = false

    init(admin: AdminPipeline, connection: ConnectionGuard) {
        self.admin = admin
        self.connection = connection
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
            let (status, contentType, body) = respond(to: head)
            send(
                status: status,
                contentType: contentType,
                body: head.method == .HEAD ? nil : body,
                length: body.count,
                version: head.version,
                keepAlive: head.isKeepAlive,
                context: context
            )
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
        context.fireChannelReadComplete()
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
        let body = Array("\(status.reasonPhrase.lowercased())\n".utf8)
        send(
            status: status,
            contentType: "text/plain",
            body: body,
            length: body.count,
            version: .http1_1,
            keepAlive: false,
            context: context
        )
    }

    private func send(
        status: HTTPResponseStatus,
        contentType: String,
        body: [UInt8]?,
        length: Int,
        version: HTTPVersion,
        keepAlive: Bool,
        context: ChannelHandlerContext
    ) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: contentType)
        headers.add(name: "Content-Length", value: String(length))
        headers.add(name: "Cache-Control", value: "no-store")
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: version, status: status, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let body {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        }
        context.write(wrapOutboundOut(.end(nil)), promise: nil)
        if !keepAlive {
            closing = true
            connection.finish()
        }
    }

    private func respond(to head: HTTPRequestHead) -> (HTTPResponseStatus, String, [UInt8]) {
        guard head.method == .GET || head.method == .HEAD else {
            return (.methodNotAllowed, "text/plain", Array("method not allowed\n".utf8))
        }
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        switch path {
        case "/healthz":
            return (.ok, "text/plain", Array("ok\n".utf8))
        case "/readyz":
            return readiness
        case "/metrics":
            guard let registry = admin.registry else {
                return (.notFound, "text/plain", Array("metrics are not enabled\n".utf8))
            }
            return (
                .ok, "text/plain; version=0.0.4; charset=utf-8",
                registry.emitToBuffer() + Array(admin.requestCounts.render().utf8)
            )
        case "/status" where admin.exposesStatus:
            let report = StatusReport(store: admin.store, redactor: admin.redactor, descriptors: admin.descriptors)
            return (.ok, "application/json", Array((report.json.serialized(pretty: true) + "\n").utf8))
        case "/status":
            return (
                .notFound, "text/plain", Array("not found: /status is served on a loopback admin address only\n".utf8)
            )
        default:
            return (.notFound, "text/plain", Array("not found\n".utf8))
        }
    }

    /// Ready once the first load is done and at least one host is served:
    /// an origin with nothing to serve must not receive traffic.
    private var readiness: (HTTPResponseStatus, String, [UInt8]) {
        guard admin.store.status.isReady else {
            return (.serviceUnavailable, "text/plain", Array("not ready: first load pending\n".utf8))
        }
        guard !admin.store.snapshot.sites.isEmpty else {
            return (.serviceUnavailable, "text/plain", Array("not ready: no host is served\n".utf8))
        }
        return (.ok, "text/plain", Array("ready\n".utf8))
    }
}
