import Foundation
import NIOCore
import ServiceLifecycle
import Testing

@testable import AASAServer

/// The origin's own limits seen from outside, on loopback: refusals at the
/// cap are counted and logged, shutdown keeps its promise, a dead listener
/// ends the service, and the access log says what happened.
@Suite("Origin under abuse", .serialized)
struct OriginAbuseTests {
    static let aasaPath = "/.well-known/apple-app-site-association"

    static func site() throws -> TemporarySite {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.a.app"), host: "a.example")
        return site
    }

    /// Opens a connection and completes one exchange on it, so the server
    /// has accepted it and set it up; returns it still open.
    static func settledConnection(port: Int) async throws -> RawClient {
        let client = try await RawClient.connect(port: port, receiveBuffer: 1 << 16, autoRead: true)
        client.write(get("a.example"))
        try await withDeadline(.seconds(10)) { try await client.waitForResponses(1) }
        #expect(client.responses.first?.status == 200)
        return client
    }

    /// The line's interval is one no run of the suite reaches: the five
    /// refusals are one line however long the run takes to make them
    /// (the interval itself is RateLimitedLog's, tested on a clock of its
    /// own in AcceptBackoffTests and HandshakeRefusalLogTests).
    @Test func refusalsAtTheCapAreCountedAndLoggedOnce() async throws {
        let site = try Self.site()
        let harness = try await OriginHarness(
            site.configuration(limits: .init(maxConnections: 2)),
            refusalLogInterval: .hours(1)
        )
        try await harness.run { harness in
            let client = try await harness.client
            let held = [
                try await Self.settledConnection(port: client.port),
                try await Self.settledConnection(port: client.port),
            ]
            for _ in 0..<5 {
                let status = try? await client.exchange(get("a.example")).first?.status
                #expect(status == nil || status == 503)
            }
            #expect(harness.metrics.contains(#"aasa_connections_refused_total{listener="http"} 5"#))
            let warnings = harness.log.entries("connection refused: at the connection cap")
            #expect(warnings.count == 1, "one line, not one per refusal")
            #expect(warnings.first?.metadata["server"] == "http")
            #expect(warnings.first?.metadata["count"] == "1")
            for connection in held { try await connection.channel.close() }
        }
    }

    /// SIGTERM with a request that never completes: the server closes it at
    /// `shutdown.gracePeriod` by its own deadline (the service group here
    /// would wait a minute), so the process exits in time.
    @Test(.timeLimit(.minutes(1))) func shutdownEndsWithinTheGraceWithSlowConnectionsOpen() async throws {
        let site = try Self.site()
        var configuration = site.configuration(limits: .init(headerTimeout: .seconds(60), idleTimeout: .seconds(60)))
        configuration.shutdownGracePeriod = .seconds(1)
        let harness = try await OriginHarness(configuration, groupGrace: .seconds(60))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await harness.group.run() }
            let slow = try await Self.settledConnection(port: try await harness.client.port)
            slow.write("GET \(Self.aasaPath) HTTP/1.1\r\nHo")
            await harness.group.triggerGracefulShutdown()
            // Bounded wait: only the server's own deadline can end it this soon.
            tasks.addTask {
                try await Task.sleep(for: .seconds(15))
                throw DeadlineExceeded()
            }
            try await tasks.next()
            tasks.cancelAll()
            try await withDeadline(.seconds(5)) { try await slow.waitUntilClosed() }
            #expect(slow.responses.count == 1, "the unfinished request got no answer")
        }
    }

    /// A listener whose socket closes while not shutting down ends its
    /// service with ``ListenerClosed``, and the group with it.
    @Test(.timeLimit(.minutes(1))) func aListenerThatClosesEndsTheService() async throws {
        let site = try Self.site()
        let harness = try await OriginHarness(site.configuration())
        await #expect(throws: ListenerClosed.self) {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await harness.group.run() }
                _ = try await harness.origin.httpAddress.port()
                try await harness.origin.httpAddress.listener?.close()
                tasks.addTask {
                    try await Task.sleep(for: .seconds(15))
                    throw DeadlineExceeded()
                }
                defer { tasks.cancelAll() }
                try await tasks.next()
            }
        }
    }

    @Test func boundAddressWaitersHonourCancellation() async throws {
        let address = BoundAddress()
        let waiter = Task { try await address.get() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { _ = try await waiter.value }
        // A waiter cancelled before it waits fails at once too.
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await address.get()
        }
        await #expect(throws: CancellationError.self) { _ = try await late.value }
    }

    // MARK: Access log

    @Test func theAccessLogSaysWhoAskedWhatAndWhatHappened() async throws {
        let site = try Self.site()
        var configuration = site.configuration(accessLog: true, limits: .init(headerTimeout: .seconds(1)))
        configuration.log.access = true
        let harness = try await OriginHarness(configuration)
        try await harness.run { harness in
            let client = try await harness.client
            // A request, then garbage, on one connection.
            let exchange = try await client.exchange(
                get("a.example", headers: ["User-Agent: AASA-Bot/1.0.0"]) + "GARBAGE\r\n\r\n",
                responses: 2
            )
            #expect(exchange.responses.map(\.status) == [200, 400])
            // A forged field in Host, and a head that never completes.
            _ = try await client.exchange(get("evil.example http.status=200"))
            let slow = try await client.connect()
            try await withDeadline(.seconds(10)) {
                try await slow.executeThenClose { inbound, outbound in
                    try await outbound.write(ByteBuffer(string: "GET / HTTP/1.1\r\nHo"))
                    for try await _ in inbound {}
                }
            }

            let requests = harness.log.entries("request")
            let good = try #require(requests.first)
            #expect(good.metadata["http.host"] == "a.example")
            #expect(good.metadata["http.user_agent"] == "AASA-Bot/1.0.0")
            #expect(good.metadata["http.client"]?.hasPrefix("127.0.0.1:") == true)
            #expect(good.metadata["http.status"] == "200")
            let bad = try #require(requests.dropFirst().first)
            #expect(bad.metadata["http.status"] == "400")
            #expect(bad.metadata["http.host"] == "-", "not the previous request's host")
            #expect(bad.metadata["http.target"] == "-")
            #expect(bad.metadata["http.error"] != nil)
            #expect(requests.contains { $0.metadata["http.host"] == "evil.example http.status=200" })
            let timeout = try #require(harness.log.entries("connection closed").first)
            #expect(timeout.metadata["http.reason"] == "header-timeout")
            #expect(timeout.metadata["http.client"]?.hasPrefix("127.0.0.1:") == true)
        }
    }
}
