import NIOCore
import NIOEmbedded
import NIOExtras
import Testing

@testable import AASAServer

/// The serving pipeline (NIO's decoder + our handlers) on a testing channel:
/// bytes in, bytes out, virtual time for the timeouts.
@Suite("Serving pipeline")
struct PipelineTests {
    let site: TemporarySite
    let store = SiteStore()

    init() async throws {
        site = try TemporarySite()
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.a.app"), host: "a.example")
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.b.app"), host: "b.example")
        let outcome = try SiteLoader(configuration: site.configuration()).load(previous: .empty, force: true)
        store.install(outcome, duration: .zero)
    }

    func channel(
        limits: ServerConfiguration.Limits = .init(),
        shutdown: ShutdownSignal = ShutdownSignal()
    ) async throws -> NIOAsyncTestingChannel {
        let pipeline = ServingPipeline(store: store, limits: limits, accessLog: nil, shutdown: shutdown)
        let channel = NIOAsyncTestingChannel()
        try await channel.eventLoop.submit { try pipeline.configure(channel) }.get()
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).get()
        return channel
    }

    func send(_ text: String, to channel: NIOAsyncTestingChannel) async throws -> String {
        try await channel.writeInbound(ByteBuffer(string: text))
        var output = ""
        while let buffer = try await channel.readOutbound(as: ByteBuffer.self) {
            output += String(buffer: buffer)
        }
        return output
    }

    func isOpen(_ channel: NIOAsyncTestingChannel) async -> Bool {
        await (try? channel.eventLoop.submit { channel.isActive }.get()) ?? false
    }

    @Test func servesGetWithStatusLineAndDate() async throws {
        let channel = try await channel()
        let output = try await send(get("a.example"), to: channel)
        #expect(output.hasPrefix("HTTP/1.1 200 OK\r\nDate: "))
        #expect(output.contains("com.a.app"))
        #expect(await isOpen(channel))
    }

    /// A client pipelining requests without reading the answers fills the
    /// socket; the connection then stops reading until it drains, so the
    /// responses queued in memory stay bounded.
    @Test func readingPausesWhileTheSocketIsNotWritable() async throws {
        let channel = try await channel()
        func autoRead() -> Bool? {
            channel.options.last { $0.option is ChannelOptions.Types.AutoReadOption }?.value as? Bool
        }
        func setWritable(_ writable: Bool) async throws {
            channel.isWritable = writable
            try await channel.eventLoop.submit { channel.pipeline.syncOperations.fireChannelWritabilityChanged() }.get()
        }
        #expect(autoRead() == nil)
        try await setWritable(false)
        #expect(autoRead() == false)
        try await setWritable(true)
        #expect(autoRead() == true)
        // Requests still flow once it is writable again.
        #expect(try await send(get("a.example"), to: channel).hasPrefix("HTTP/1.1 200 OK"))
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let channel = try await channel()
        let output = try await send(get("a.example") + get("b.example", method: "HEAD") + get("b.example"), to: channel)
        let statuses = output.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
        #expect(statuses == ["200", "200", "200"])
        let a = try #require(output.range(of: "com.a.app"))
        let b = try #require(output.range(of: "com.b.app"))
        #expect(a.lowerBound < b.lowerBound)
        #expect(output.components(separatedBy: "com.b.app").count == 2)  // HEAD had no body
    }

    @Test(arguments: [
        ("malformed request line", "GARBAGE\r\n\r\n"),
        ("bad version", "GET / HTTP/9.9\r\nHost: a.example\r\n\r\n"),
        ("space in header name", "GET / HTTP/1.1\r\nHo st: a.example\r\n\r\n"),
        ("obs-fold", "GET / HTTP/1.1\r\nHost: a.example\r\nX-A: b\r\n c\r\n\r\n"),
        (
            "conflicting Content-Length",
            "GET / HTTP/1.1\r\nHost: a.example\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"
        ),
        (
            "Content-Length and chunked",
            "POST / HTTP/1.1\r\nHost: a.example\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        ),
        ("invalid chunked framing", "POST / HTTP/1.1\r\nHost: a.example\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
        ("NUL in Host", "GET / HTTP/1.1\r\nHost: a\u{0}.example\r\n\r\n"),
        (
            "request body",
            "GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: a.example\r\nContent-Length: 3\r\n\r\nabc"
        ),
    ])
    func badRequestsGet400AndClose(_ name: String, request: String) async throws {
        let channel = try await channel()
        let output = try await send(request, to: channel)
        #expect(output.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(name): \(output)")
        #expect(output.contains("Connection: close"))
        #expect(!(await isOpen(channel)), "\(name)")
    }

    /// A file larger than one coalesced buffer goes out as a prefix and its
    /// own bytes, also once the host's slot knows the answer: the first GET
    /// learns it, the second and the HEAD are answered from the slot.
    @Test func aFileOverTheCoalescingLimitIsAnsweredWhole() async throws {
        let paths = (0..<1_000).map { "{\"/\":\"/product/\($0)/*\"}" }.joined(separator: ",")
        try site.write(
            "{\"applinks\":{\"details\":[{\"appIDs\":[\"ABCDE12345.com.c.app\"],\"components\":[\(paths)]}]}}",
            host: "c.example"
        )
        let outcome = try SiteLoader(configuration: site.configuration()).load(previous: store.snapshot, force: true)
        store.install(outcome, duration: .zero)
        let channel = try await channel()
        for method in ["GET", "GET", "HEAD", "GET"] {
            let output = try await send(get("c.example", method: method), to: channel)
            let parts = output.components(separatedBy: "\r\n\r\n")
            let length = try #require(
                parts[0].split(separator: "\r\n").first { $0.hasPrefix("Content-Length: ") }?.dropFirst(16)
            )
            #expect(Int(length) ?? 0 > ResponseCache.coalescingLimit)
            #expect(parts.count == 2)
            #expect(parts[1].utf8.count == (method == "HEAD" ? 0 : Int(length)), "\(method)")
        }
    }

    /// Every answer is counted to its host and status and logged with its
    /// size, whether the host's slot learns it or already knows it: GETs and
    /// a HEAD of a served file, twice a file the host does not serve, twice
    /// a host nobody serves.
    @Test func answersAreCountedAndLoggedAsTheyAreSent() async throws {
        let counts = RequestCountTable()
        let store = SiteStore()
        let loader = SiteLoader(configuration: site.configuration(), requestCounts: counts)
        store.install(try loader.load(previous: .empty, force: true), duration: .zero)
        let logs = CapturedLogs()
        let pipeline = ServingPipeline(store: store, limits: .init(), accessLog: logs.logger, requestCounts: counts)
        let channel = NIOAsyncTestingChannel()
        try await channel.eventLoop.submit { try pipeline.configure(channel) }.get()
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).get()
        let assetLinks = "/.well-known/assetlinks.json"
        let requests = [
            get("a.example"), get("a.example"), get("a.example", method: "HEAD"),
            get("a.example", assetLinks), get("a.example", assetLinks),
            get("nobody.example"), get("nobody.example"),
        ]
        let output = try await send(requests.joined(), to: channel)
        #expect(output.components(separatedBy: "HTTP/1.1 ").count == requests.count + 1)
        let text = counts.render()
        #expect(text.contains("aasa_requests_total{host=\"a.example\",status=\"200\"} 3\n"), "\(text)")
        #expect(text.contains("aasa_requests_total{host=\"a.example\",status=\"404\"} 2\n"), "\(text)")
        #expect(text.contains("aasa_requests_total{host=\"unknown\",status=\"404\"} 2\n"), "\(text)")
        #expect(!text.contains("b.example"))
        // The sizes logged are those of the answers without the table.
        let heads = [
            ResponderTests.head(host: "a.example"), ResponderTests.head(host: "a.example"),
            ResponderTests.head(.HEAD, host: "a.example"),
            ResponderTests.head(.GET, assetLinks, host: "a.example"),
            ResponderTests.head(.GET, assetLinks, host: "a.example"),
            ResponderTests.head(host: "nobody.example"), ResponderTests.head(host: "nobody.example"),
        ]
        let sizes = heads.map { head in
            let reply = Responder().respond(to: head, snapshot: store.snapshot)
            return "\(reply.response.payloadLength(isHead: reply.isHead))"
        }
        #expect(logs.entries("request").map { $0.metadata["http.bytes"] } == sizes)
    }

    @Test func oversizeHeadGets431AndCloses() async throws {
        let channel = try await channel(limits: .init(maxHeaderBytes: 1024))
        let output = try await send(
            get("a.example", headers: ["X-Big: " + String(repeating: "a", count: 2000)]),
            to: channel
        )
        #expect(output.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        #expect(!(await isOpen(channel)))
    }

    @Test func manyHeadersGet431() async throws {
        let channel = try await channel()
        let headers = (0..<10_000).map { "X-\($0): 1" }
        let output = try await send(get("a.example", headers: headers), to: channel)
        #expect(output.hasPrefix("HTTP/1.1 431"))
    }

    @Test func headerTimeoutClosesASlowRequest() async throws {
        let channel = try await channel(limits: .init(headerTimeout: .seconds(10), idleTimeout: .seconds(60)))
        _ = try await send("GET /.well-known/apple-app-site-association HTTP/1.1\r\nHo", to: channel)
        await channel.testingEventLoop.advanceTime(by: .seconds(9))
        _ = try await send("s", to: channel)  // one byte at a time does not reset it
        #expect(await isOpen(channel))
        await channel.testingEventLoop.advanceTime(by: .seconds(2))
        #expect(!(await isOpen(channel)))
    }

    @Test func idleTimeoutClosesAnIdleConnection() async throws {
        let channel = try await channel(limits: .init(headerTimeout: .seconds(10), idleTimeout: .seconds(60)))
        _ = try await send(get("a.example"), to: channel)
        await channel.testingEventLoop.advanceTime(by: .seconds(30))
        #expect(await isOpen(channel))
        _ = try await send(get("a.example"), to: channel)
        await channel.testingEventLoop.advanceTime(by: .seconds(59))
        #expect(await isOpen(channel))
        await channel.testingEventLoop.advanceTime(by: .seconds(2))
        #expect(!(await isOpen(channel)))
    }

    @Test func quiesceClosesIdleConnectionsAfterAGrace() async throws {
        let channel = try await channel()
        _ = try await send(get("a.example"), to: channel)
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(await isOpen(channel))
        await channel.testingEventLoop.advanceTime(by: TimeAmount(ServerConfiguration.Limits().idleShutdownGrace))
        #expect(!(await isOpen(channel)))
    }

    @Test func requestArrivingDuringTheGraceIsAnswered() async throws {
        let channel = try await channel()
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        let output = try await send(get("a.example"), to: channel)
        #expect(output.hasPrefix("HTTP/1.1 200 OK"))
        #expect(!(await isOpen(channel)))
    }

    /// A connection accepted after shutdown began may miss the quiesce event
    /// (it can run before the pipeline exists); it quiesces by itself.
    @Test func connectionStartingAfterShutdownBeganQuiescesByItself() async throws {
        let shutdown = ShutdownSignal()
        shutdown.begin()
        let idle = try await channel(shutdown: shutdown)
        #expect(await isOpen(idle))
        await idle.testingEventLoop.advanceTime(by: TimeAmount(ServerConfiguration.Limits().idleShutdownGrace))
        #expect(!(await isOpen(idle)))

        let busy = try await channel(shutdown: shutdown)
        let output = try await send(get("a.example"), to: busy)
        #expect(output.hasPrefix("HTTP/1.1 200 OK"))
        #expect(!(await isOpen(busy)))
    }

    @Test func quiesceLetsTheRequestInFlightFinish() async throws {
        let channel = try await channel()
        _ = try await send("GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: a.ex", to: channel)
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(await isOpen(channel))
        let output = try await send("ample\r\n\r\n", to: channel)
        #expect(output.hasPrefix("HTTP/1.1 200 OK"))
        #expect(output.contains("com.a.app"))
        #expect(!(await isOpen(channel)))
    }
}
