import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// The least a server built on NIO's HTTP/1 decoder can do per request, for
/// `run.sh`'s floor row: the same decoder and socket options as `aasa serve`
/// and one `ChannelHandler` that answers every request, whatever its host or
/// path, with one constant response (a 200 with the file's bytes and the
/// headers aasa sends, `Date` fixed at start) in one write. No routing, no
/// host lookup, no clock, no counters, no timeouts: what aasa costs above
/// this is its own code; what this costs above nginx is NIO's.
///
///     NIOFloor <file> <port>
@main
struct NIOFloor {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let port = Int(arguments[2]) else {
            print("usage: NIOFloor <file> <port>")
            return
        }
        let body = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
        var response = ByteBuffer(
            string: "HTTP/1.1 200 OK\r\n"
                + "Date: Sun, 22 Nov 2026 00:00:00 GMT\r\n"
                + "Content-Type: application/json\r\n"
                + "ETag: \"00000000000000000000000000000000\"\r\n"
                + "Last-Modified: Sun, 22 Nov 2026 00:00:00 GMT\r\n"
                + "Cache-Control: max-age=300\r\n"
                + "Vary: Accept-Encoding\r\n"
                + "X-Content-Type-Options: nosniff\r\n"
                + "Content-Length: \(body.count)\r\n\r\n"
        )
        response.writeBytes(body)

        // One loop: the benchmark pins the server to one CPU.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelInitializer { [response] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes))
                    )
                    try channel.pipeline.syncOperations.addHandler(ConstantResponder(response: response))
                }
            }
            .bind(host: "127.0.0.1", port: port)
            .get()
        print("listening on \(port)")
        try await channel.closeFuture.get()
    }
}

final class ConstantResponder: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    private let response: ByteBuffer

    init(response: ByteBuffer) {
        self.response = response
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            context.write(wrapOutboundOut(response), promise: nil)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }
}
