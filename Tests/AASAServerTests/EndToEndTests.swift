import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Testing

@testable import AASAServer

/// The real server on an ephemeral loopback port, over real sockets.
@Suite("End to end")
struct EndToEndTests {
    static let aasaPath = "/.well-known/apple-app-site-association"

    static func site() throws -> TemporarySite {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.a.app"), host: "a.example")
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.b.app"), host: "b.example")
        return site
    }

    @Test func perHostBodiesHeadAnd304() async throws {
        let site = try Self.site()
        try await RunningOrigin.with(site.configuration()) { origin in
            let a = try #require(try await origin.client.exchange(get("a.example")).first)
            #expect(a.status == 200)
            #expect(a.header("Content-Type") == "application/json")
            #expect(a.bodyText == SampleFile.aasa(app: "ABCDE12345.com.a.app"))
            let b = try #require(try await origin.client.exchange(get("B.EXAMPLE:443")).first)
            #expect(b.bodyText.contains("com.b.app"))

            let head = try #require(
                try await origin.client.exchange(get("a.example", method: "HEAD"), heads: [0]).first
            )
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == a.header("Content-Length"))

            let etag = try #require(a.header("ETag"))
            let cached = try #require(
                try await origin.client.exchange(get("a.example", headers: ["If-None-Match: \(etag)"])).first
            )
            #expect(cached.status == 304)
            #expect(cached.body.isEmpty)
        }
    }

    @Test(arguments: [
        (get("a.example", method: "POST"), 405),
        (get("a.example", "/elsewhere"), 404),
        (get("nobody.example"), 404),
        (get(nil), 400),
        ("GET \(aasaPath) HTTP/1.0\r\n\r\n", 404),
        (get("a.example", headers: ["X-Big: " + String(repeating: "x", count: 10_000)]), 431),
        ("NONSENSE\r\n\r\n", 400),
    ])
    func edgeStatuses(request: String, status: Int) async throws {
        let site = try Self.site()
        try await RunningOrigin.with(site.configuration()) { origin in
            let exchange = try await origin.client.exchange(request)
            let response = try #require(exchange.first)
            #expect(response.status == status)
            if status == 405 { #expect(response.header("Allow") == "GET, HEAD") }
            #expect(!(300..<400).contains(response.status) || response.status == 304)
        }
    }

    @Test func keepAliveServesManyRequestsOnOneConnection() async throws {
        let site = try Self.site()
        try await RunningOrigin.with(site.configuration()) { origin in
            let requests = String(repeating: get("a.example") + get("b.example"), count: 50)
            let exchange = try await origin.client.exchange(requests, responses: 100)
            #expect(exchange.responses.count == 100)
            #expect(exchange.responses.allSatisfy { $0.status == 200 })
        }
    }

    @Test func invalidReloadKeepsServingTheLastGoodFile() async throws {
        let site = try Self.site()
        try await RunningOrigin.with(site.configuration()) { origin in
            try site.write(SampleFile.invalid, host: "a.example")
            let outcome = try #require(await origin.origin.reloader.reload(.signal))
            #expect(outcome.issues.count == 1)
            let response = try #require(try await origin.client.exchange(get("a.example")).first)
            #expect(response.status == 200)
            #expect(response.bodyText == SampleFile.aasa(app: "ABCDE12345.com.a.app"))
            let status = origin.origin.store.status
            #expect(status.lastErrors["a.example"]?.message.contains("exclude") == true)
        }
    }

    @Test func oversizeFileIsRejected() async throws {
        let site = try Self.site()
        try site.write(Data(repeating: 0x20, count: 131_073), host: "big.example")
        try await RunningOrigin.with(site.configuration()) { origin in
            let response = try #require(try await origin.client.exchange(get("big.example")).first)
            #expect(response.status == 404)
            #expect(origin.origin.store.status.issues.contains { $0.host == "big.example" })
        }
    }

    @Test func pollingPicksUpANewHost() async throws {
        let site = try Self.site()
        try await RunningOrigin.with(site.configuration(pollInterval: .milliseconds(50))) { origin in
            let before = origin.origin.store.snapshot.generation
            try site.write(SampleFile.aasa(app: "ABCDE12345.com.new.app"), host: "new.example")
            // Wait for loads until one contains the new host.
            var generation = before
            while try await origin.origin.store.snapshot(after: generation).sites["new.example"] == nil {
                generation += 1
            }
            let response = try #require(try await origin.client.exchange(get("new.example")).first)
            #expect(response.status == 200)
            #expect(response.bodyText.contains("com.new.app"))
        }
    }

    /// A client hammers the server on keep-alive connections while the file
    /// changes and reloads run: every response is a 200 carrying one whole
    /// version of the file, never a failure or a mix.
    @Test func reloadUnderLoadNeverFailsARequest() async throws {
        let site = try Self.site()
        let versions = (0..<20).map { SampleFile.aasa(app: "ABCDE12345.com.v\($0).app") }
        try site.write(versions[0], host: "a.example")
        try await RunningOrigin.with(site.configuration()) { origin in
            try await withThrowingTaskGroup(of: [TestResponse].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        var seen: [TestResponse] = []
                        for _ in 0..<10 {
                            let batch = String(repeating: get("a.example"), count: 20)
                            seen += try await origin.client.exchange(batch, responses: 20).responses
                        }
                        return seen
                    }
                }
                for version in versions.dropFirst() {
                    try site.write(version, host: "a.example")
                    await origin.origin.reloader.reload(.signal)
                }
                var total = 0
                for try await responses in group {
                    total += responses.count
                    #expect(responses.allSatisfy { $0.status == 200 })
                    #expect(responses.allSatisfy { versions.contains($0.bodyText) })
                }
                #expect(total == 800)
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func gracefulShutdownFinishesTheRequestInFlight() async throws {
        let site = try Self.site()
        var logger = Logging.Logger(label: "test")
        logger.logLevel = .critical
        // Shutdown reaches the connection at some point while the request is
        // sent: mid-request (answered, then closed), before its first bytes
        // are read (answered within the grace, then closed), or after it is
        // answered (closed at the end of the grace). All three are right; the
        // grace is long enough that a busy CI machine cannot stretch the
        // second past it, and short enough for the third.
        let configuration = site.configuration(limits: .init(idleShutdownGrace: .seconds(2)))
        let origin = AASAOrigin(configuration: configuration, logger: logger)
        try await origin.initialLoad()
        let group = ServiceGroup(configuration: .init(services: try origin.makeServices(), logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let client = TestHTTPClient(port: try await origin.httpAddress.port())
            let channel = try await client.connect()
            try await channel.executeThenClose { inbound, outbound in
                // One exchange first: the server has accepted this connection
                // and set up its pipeline before shutdown begins (a connection
                // still in the listen backlog is reset when the listener closes).
                var responses = inbound.makeAsyncIterator()
                try await outbound.write(ByteBuffer(string: get("a.example")))
                let first = try await TestHTTPClient.read(&responses, until: 1)
                #expect(first.first?.status == 200)
                try await outbound.write(ByteBuffer(string: "GET \(Self.aasaPath) HTTP/1.1\r\nHost: a.exa"))
                await group.triggerGracefulShutdown()
                try await outbound.write(ByteBuffer(string: "mple\r\n\r\n"))
                let exchange = try await TestHTTPClient.read(&responses, until: 2)
                #expect(exchange.responses.count == 1)
                #expect(exchange.first?.status == 200)
                #expect(exchange.closed)
            }
            try await tasks.waitForAll()
        }
        // After shutdown nothing listens any more.
        let port = try await origin.httpAddress.port()
        await #expect(throws: (any Error).self) { _ = try await TestHTTPClient(port: port).connect() }
    }

    @Test func adminEndpoints() async throws {
        let site = try Self.site()
        try site.write(SampleFile.invalid, host: "bad.example")
        try await RunningOrigin.with(site.configuration(admin: true)) { origin in
            let admin = TestHTTPClient(port: try await origin.origin.adminAddress.port())
            #expect(try await admin.exchange(get("localhost", "/healthz")).first?.status == 200)
            #expect(try await admin.exchange(get("localhost", "/readyz")).first?.status == 200)
            let status = try #require(try await admin.exchange(get("localhost", "/status")).first)
            #expect(status.header("Content-Type") == "application/json")
            #expect(status.bodyText.contains("\"host\": \"a.example\""))
            #expect(status.bodyText.contains("ABCDE12345.com.a.app"))
            #expect(status.bodyText.contains("bad.example"))
            // No metrics registry was given to this origin.
            #expect(try await admin.exchange(get("localhost", "/metrics")).first?.status == 404)
        }
    }
}
