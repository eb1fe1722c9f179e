import AASAKit
import Foundation
import NIOCore
import NIOExtras
import NIOHTTP1
import Prometheus

/// The admin port: `/healthz`, `/readyz`, `/metrics`, `/status`. Off the hot
/// path, so it uses NIO's standard HTTP/1 pipeline and encodes per request.
final class AdminHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let store: SiteStore
    private let registry: PrometheusCollectorRegistry?
    private let requestCounts: RequestCountTable
    private var request: HTTPRequestHead?

    init(store: SiteStore, registry: PrometheusCollectorRegistry?, requestCounts: RequestCountTable) {
        self.store = store
        self.registry = registry
        self.requestCounts = requestCounts
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = head
        case .body:
            break
        case .end:
            guard let head = request else { return }
            request = nil
            let (status, contentType, body) = respond(to: head)
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: contentType)
            headers.add(name: "Content-Length", value: String(body.count))
            headers.add(name: "Cache-Control", value: "no-store")
            let keepAlive = head.isKeepAlive
            if !keepAlive { headers.add(name: "Connection", value: "close") }
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
                promise: nil
            )
            if head.method != .HEAD {
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                if !keepAlive { context.close(promise: nil) }
            }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, request == nil {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
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
            return store.status.isReady
                ? (.ok, "text/plain", Array("ready\n".utf8))
                : (.serviceUnavailable, "text/plain", Array("not ready: first load pending\n".utf8))
        case "/metrics":
            guard let registry else { return (.notFound, "text/plain", Array("metrics are not enabled\n".utf8)) }
            return (
                .ok, "text/plain; version=0.0.4; charset=utf-8",
                registry.emitToBuffer() + Array(requestCounts.render().utf8)
            )
        case "/status":
            let json = StatusReport(store: store).json.serialized(pretty: true) + "\n"
            return (.ok, "application/json", Array(json.utf8))
        default:
            return (.notFound, "text/plain", Array("not found\n".utf8))
        }
    }
}
