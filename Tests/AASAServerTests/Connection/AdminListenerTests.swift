import Foundation
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import AASAServer

/// Issue 11 item 3 and the readiness part of 13: the admin port lives
/// under the serving port's limits, has its own connection cap, keeps
/// `/status` (and every absolute path) to loopback, says so in the log when
/// it is bound wider, and is not ready while no host is served.
@Suite("Admin listener", .serialized)
struct AdminListenerTests {
    static func site() throws -> TemporarySite {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.a.app"), host: "a.example")
        try site.write(SampleFile.invalid, host: "bad.example")
        return site
    }

    @Test(.timeLimit(.minutes(1))) func aSlowHeadOnTheAdminPortIsClosedAtTheHeaderTimeout() async throws {
        let site = try Self.site()
        let configuration = site.configuration(
            admin: true,
            limits: .init(headerTimeout: .seconds(1), idleTimeout: .seconds(60))
        )
        try await OriginHarness(configuration).run { harness in
            let admin = try await RawClient.connect(port: try await harness.origin.adminAddress.port(), autoRead: true)
            admin.write("GET /healthz HTTP/1.1\r\nHo")
            try await withDeadline(.seconds(10)) { try await admin.waitUntilClosed() }
            #expect(admin.responses.isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(1))) func anIdleAdminConnectionIsClosedAtTheIdleTimeout() async throws {
        let site = try Self.site()
        let configuration = site.configuration(admin: true, limits: .init(idleTimeout: .seconds(1)))
        try await OriginHarness(configuration).run { harness in
            // The request leaves with the connection: written by the test's
            // task, it could come after the 1 s idle timeout under load.
            let admin = try await RawClient.connect(
                port: try await harness.origin.adminAddress.port(),
                autoRead: true,
                firstWrite: get("localhost", "/healthz")
            )
            try await withDeadline(.seconds(10)) { try await admin.waitUntilClosed() }
            #expect(admin.responses.map(\.status) == [200])
        }
    }

    @Test func adminConnectionsPastTheCapAreRefusedAndCounted() async throws {
        let site = try Self.site()
        var configuration = site.configuration(admin: true)
        configuration.adminMaxConnections = 1
        try await OriginHarness(configuration).run { harness in
            let port = try await harness.origin.adminAddress.port()
            let held = try await RawClient.connect(port: port, receiveBuffer: 1 << 16, autoRead: true)
            held.write(get("localhost", "/healthz"))
            try await withDeadline(.seconds(10)) { try await held.waitForResponses(1) }
            let refused = try? await TestHTTPClient(port: port).exchange(get("localhost", "/healthz")).first?.status
            #expect(refused == nil || refused == 503)
            #expect(harness.metrics.contains(#"aasa_connections_refused_total{listener="admin"} 1"#))
            // The serving port's cap is separate.
            #expect(try await harness.client.exchange(get("a.example")).first?.status == 200)
            try await held.channel.close()
        }
    }

    /// `aasa_requests_total` on `/metrics` counts every request answered
    /// before it, pipelined on one connection and one per connection.
    @Test func metricsCountEveryRequestAnsweredBeforeThem() async throws {
        let site = try Self.site()
        try await OriginHarness(site.configuration(admin: true)).run { harness in
            let client = try await harness.client
            let pipelined = try await client.exchange(String(repeating: get("a.example"), count: 5), responses: 5)
            #expect(pipelined.responses.map(\.status) == Array(repeating: 200, count: 5))
            for _ in 0..<3 { #expect(try await client.exchange(get("a.example")).first?.status == 200) }
            let metrics = try #require(try await harness.admin.exchange(get("localhost", "/metrics")).first)
            #expect(metrics.status == 200)
            let line = #"aasa_requests_total{host="a.example",status="200"} 8"# + "\n"
            #expect(metrics.bodyText.contains(line), "\(metrics.bodyText)")
        }
    }

    /// `/status` names files relative to the served directory: the
    /// temporary directory's absolute path appears nowhere.
    @Test func statusShowsNoAbsolutePath() async throws {
        let site = try Self.site()
        try await OriginHarness(site.configuration(admin: true)).run { harness in
            let status = try #require(try await harness.admin.exchange(get("localhost", "/status")).first)
            #expect(status.status == 200)
            #expect(status.bodyText.contains("a.example/apple-app-site-association"))
            #expect(status.bodyText.contains("bad.example"))
            let root = URL(fileURLWithPath: site.path).resolvingSymlinksInPath().path
            #expect(!status.bodyText.contains(site.path))
            #expect(!status.bodyText.contains(root))
        }
    }

    /// Issue 13: an origin with nothing to serve must not get traffic.
    @Test func readyzIsNotReadyWhileNoHostIsServed() async throws {
        let site = try TemporarySite()
        try site.write(SampleFile.invalid, host: "bad.example")
        try await OriginHarness(site.configuration(admin: true)).run { harness in
            let readyz = try #require(try await harness.admin.exchange(get("localhost", "/readyz")).first)
            #expect(readyz.status == 503)
            #expect(readyz.bodyText.contains("no host is served"))
            #expect(try await harness.admin.exchange(get("localhost", "/healthz")).first?.status == 200)
        }
    }

    // MARK: Beyond loopback

    @Test func anAdminListenerBeyondLoopbackIsAWarning() async throws {
        let site = try Self.site()
        var configuration = site.configuration()
        configuration.admin = .init(bind: "0.0.0.0", port: 0)
        // Only the services are made: nothing binds the wildcard address.
        let harness = try await OriginHarness(configuration)
        let warning = try #require(
            harness.log.all.first { $0.level == .warning && $0.message.contains("admin listener") }
        )
        #expect(warning.metadata["bind"] == "0.0.0.0")
        var loopback = configuration
        loopback.admin = .init(bind: "127.0.0.1", port: 0)
        let quiet = try await OriginHarness(loopback)
        #expect(!quiet.log.all.contains { $0.message.contains("admin listener") })
    }

    @Test(arguments: [
        ("0.0.0.0", false), ("::", false), ("192.0.2.1", false), ("127.0.0.1", true), ("127.1.2.3", true),
        ("::1", true), ("localhost", true),
    ])
    func loopbackIsRecognised(bind: String, loopback: Bool) {
        #expect(ServerConfiguration.Listener(bind: bind, port: 0).isLoopback == loopback, "\(bind)")
    }

    /// Bound beyond loopback, the admin port answers the probes and
    /// metrics only (run on a testing channel: no test binds a wildcard).
    @Test func beyondLoopbackOnlyProbesAndMetricsAreServed() async throws {
        let site = try Self.site()
        let origin = AASAOrigin(configuration: site.configuration(), logger: Logger(label: "test"))
        try await origin.initialLoad()
        for (bind, statusCode) in [("0.0.0.0", "404"), ("127.0.0.1", "200")] {
            let pipeline = AdminPipeline(
                store: origin.store,
                registry: nil,
                requestCounts: RequestCountTable(),
                configuration: site.configuration(),
                listener: .init(bind: bind, port: 0),
                shutdown: ShutdownSignal()
            )
            let channel = NIOAsyncTestingChannel()
            try await channel.eventLoop.submit { try pipeline.configure(channel) }.get()
            try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).get()
            for (path, expected) in [("/healthz", "200"), ("/readyz", "200"), ("/status", statusCode)] {
                try await channel.writeInbound(ByteBuffer(string: get("localhost", path)))
                // `/status` is answered once its body is built off the loop.
                let first = try await withDeadline(.seconds(10)) {
                    try await channel.waitForOutboundWrite(as: ByteBuffer.self)
                }
                var output = String(buffer: first)
                while let buffer = try await channel.readOutbound(as: ByteBuffer.self) {
                    output += String(buffer: buffer)
                }
                #expect(output.hasPrefix("HTTP/1.1 \(expected)"), "\(bind) \(path): \(output.prefix(40))")
            }
            _ = try? await channel.finish()
        }
    }
}
