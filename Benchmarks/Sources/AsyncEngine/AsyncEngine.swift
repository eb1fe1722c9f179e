import AASAServer
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// The origin's request path on a `NIOAsyncChannel` loop instead of a
/// `ChannelHandler`, for issue 3's engine comparison: same decoder, same
/// snapshot, same pre-encoded responses; only the per-connection loop differs.
///
///     AsyncEngine <dir> <port>
@main
struct AsyncEngine {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let port = Int(arguments[2]) else {
            print("usage: AsyncEngine <dir> <port>")
            return
        }
        var configuration = ServerConfiguration()
        configuration.files.directory = arguments[1]
        let store = SiteStore()
        let logger = Logger(label: "async-engine")
        let reloader = SiteReloader(
            store: store,
            loader: SiteLoader(configuration: configuration),
            pollInterval: nil,
            logger: logger
        )
        try await reloader.initialLoad(strict: true)
        let responder = Responder()

        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes))
                    )
                    return try NIOAsyncChannel<HTTPServerRequestPart, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        print("listening on \(port)")
        try await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { connections in
                for try await connection in connections {
                    group.addTask {
                        try? await serve(connection, store: store, responder: responder)
                    }
                }
            }
        }
    }

    static func serve(
        _ connection: NIOAsyncChannel<HTTPServerRequestPart, ByteBuffer>,
        store: SiteStore,
        responder: Responder
    ) async throws {
        try await connection.executeThenClose { inbound, outbound in
            var pending: Responder.Reply?
            var dates = DateLines()
            for try await part in inbound {
                switch part {
                case .head(let head):
                    pending = responder.respond(to: head, snapshot: store.snapshot)
                case .body:
                    break
                case .end:
                    guard let reply = pending else { continue }
                    pending = nil
                    let response = reply.response
                    let payload =
                        reply.isHead
                        ? response.bytes.getSlice(at: response.bytes.readerIndex, length: response.headLength)
                            ?? response.bytes
                        : response.bytes
                    try await outbound.write(contentsOf: [dates.prefix(for: response), payload])
                    if response.closesConnection { return }
                }
            }
        }
    }
}

/// Status line + `Date` + `Connection`, rebuilt once a second (as the handler's cache does).
struct DateLines {
    private struct Key: Hashable {
        let status: EncodedResponse.Status
        let connection: EncodedResponse.Connection
    }
    private var second = -1
    private var cached: [Key: ByteBuffer] = [:]
    private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()

    mutating func prefix(for response: EncodedResponse) -> ByteBuffer {
        let key = Key(status: response.status, connection: response.connection)
        let now = time(nil)
        if now != second {
            second = now
            cached.removeAll(keepingCapacity: true)
        }
        if let buffer = cached[key] { return buffer }
        let date = Self.formatter.string(from: Date(timeIntervalSince1970: Double(now)))
        let buffer = ByteBuffer(
            string: "\(response.status.statusLine)Date: \(date)\r\n\(response.connection.headerLine)"
        )
        cached[key] = buffer
        return buffer
    }
}
