import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// What the fake answers to one request.
struct FakeResponse: Sendable {
    /// How the body is delivered.
    enum Delivery: Sendable {
        /// All at once.
        case normal
        /// Never answer: the client's timeout has to fire.
        case never
        /// Close the connection without answering: no answer, at once,
        /// whatever the machine's load does to a timeout.
        case hangUp
        /// Stream 16 KiB chunks with no end (bounded at 64 MiB so a broken
        /// client cannot make the test run forever).
        case endless
    }

    var status: HTTPResponseStatus
    var headers: [(String, String)]
    var body: [UInt8]
    var delivery: Delivery

    init(
        _ status: HTTPResponseStatus = .ok,
        headers: [(String, String)] = [],
        body: [UInt8] = [],
        delivery: Delivery = .normal
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delivery = delivery
    }

    static func json(
        _ text: String,
        contentType: String = "application/json",
        headers: [(String, String)] = []
    ) -> FakeResponse {
        FakeResponse(.ok, headers: [("Content-Type", contentType)] + headers, body: Array(text.utf8))
    }

    static let notFound = FakeResponse(
        .notFound,
        headers: [("Content-Type", "text/plain")],
        body: Array("not found".utf8)
    )
}

/// A small HTTP/1.1 server on 127.0.0.1, port 0, returning canned answers:
/// the "origin" and "Apple CDN" the checks are tested against.
final class FakeHTTPServer: Sendable {
    typealias Responder = @Sendable (HTTPRequestHead) -> FakeResponse

    private let channel: any Channel
    private let state: State
    let port: Int
    let scheme: String

    private init(channel: any Channel, port: Int, scheme: String, state: State) {
        self.channel = channel
        self.port = port
        self.scheme = scheme
        self.state = state
    }

    /// `http://127.0.0.1:<port>` (or https).
    var baseURL: String { "\(scheme)://127.0.0.1:\(port)" }

    /// Every request head received so far.
    var requests: [HTTPRequestHead] { state.received.withLock { $0 } }

    /// Starts a server, runs `body`, and stops the server whatever happens.
    @discardableResult
    static func with<Result>(
        tls: NIOSSLContext? = nil,
        _ responder: @escaping Responder,
        _ body: (FakeHTTPServer) async throws -> Result
    ) async throws -> Result {
        try await with(
            scheme: tls == nil ? "http" : "https",
            configure: { channel, state in
                if let tls {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
                }
                try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                try channel.pipeline.syncOperations.addHandler(Handler(responder: responder, state: state))
            },
            body
        )
    }

    /// Starts a listener whose connections get the pipeline `configure`
    /// builds (the project's own origin pipeline, for one), runs `body`, and
    /// stops the listener whatever happens. `requests` stays empty.
    @discardableResult
    static func with<Result>(
        scheme: String = "http",
        configuring configure: @escaping @Sendable (any Channel) throws -> Void,
        _ body: (FakeHTTPServer) async throws -> Result
    ) async throws -> Result {
        try await with(scheme: scheme, configure: { channel, _ in try configure(channel) }, body)
    }

    private static func with<Result>(
        scheme: String,
        configure: @escaping @Sendable (any Channel, State) throws -> Void,
        _ body: (FakeHTTPServer) async throws -> Result
    ) async throws -> Result {
        let server = try await start(scheme: scheme, configure: configure)
        do {
            let result = try await body(server)
            try await server.stop()
            return result
        } catch {
            try? await server.stop()
            throw error
        }
    }

    private static func start(
        scheme: String,
        configure: @escaping @Sendable (any Channel, State) throws -> Void
    ) async throws -> FakeHTTPServer {
        let state = State()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                state.connections.withLock { $0.append(channel) }
                return channel.eventLoop.makeCompletedFuture { try configure(channel, state) }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = channel.localAddress?.port else {
            try await channel.close()
            throw FakeServerError.noPort
        }
        return FakeHTTPServer(channel: channel, port: port, scheme: scheme, state: state)
    }

    /// How many of the connections accepted so far are still open once
    /// they have all closed, or at `deadline`, whichever comes first.
    func connectionsOpen(after deadline: TimeAmount) async -> Int {
        let connections = state.connections.withLock { $0 }
        let loop = channel.eventLoop
        let settled = loop.makePromise(of: Void.self)
        let timer = loop.scheduleTask(in: deadline) { settled.succeed() }
        EventLoopFuture.andAllComplete(connections.map(\.closeFuture), on: loop).whenComplete { _ in
            // Both callbacks run on `loop`: a cancelled timer never fires,
            // one that fired already completed the promise.
            timer.cancel()
            timer.futureResult.whenFailure { _ in settled.succeed() }
        }
        try? await settled.futureResult.get()
        return connections.filter(\.isActive).count
    }

    func stop() async throws {
        try await channel.close()
        for connection in state.connections.withLock({ $0 }) {
            try? await connection.close()
        }
    }

    enum FakeServerError: Error {
        case noPort
    }

    /// Shared between the handlers of all connections.
    private final class State: Sendable {
        let connections = Mutex<[any Channel]>([])
        let received = Mutex<[HTTPRequestHead]>([])
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let responder: Responder
        let state: State
        var head: HTTPRequestHead?

        init(responder: @escaping Responder, state: State) {
            self.responder = responder
            self.state = state
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let requestHead):
                head = requestHead
                state.received.withLock { $0.append(requestHead) }
            case .body:
                break
            case .end:
                guard let requestHead = head else { return }
                respond(responder(requestHead), context: context)
            }
        }

        private func respond(_ response: FakeResponse, context: ChannelHandlerContext) {
            guard response.delivery != .never else { return }
            guard response.delivery != .hangUp else {
                context.close(promise: nil)
                return
            }
            var headers = HTTPHeaders(response.headers)
            if response.delivery == .normal {
                headers.replaceOrAdd(name: "Content-Length", value: "\(response.body.count)")
            }
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: response.status, headers: headers))),
                promise: nil
            )
            if response.delivery == .endless {
                stream(context: context, remaining: 4096)
                return
            }
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: response.body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }

        private func stream(context: ChannelHandlerContext, remaining: Int) {
            guard remaining > 0, context.channel.isActive else { return }
            let chunk = ByteBuffer(repeating: UInt8(ascii: "a"), count: 16 * 1024)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(chunk)))).assumeIsolated().whenSuccess {
                self.stream(context: context, remaining: remaining - 1)
            }
        }
    }
}
