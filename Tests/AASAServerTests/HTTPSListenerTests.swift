import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import Testing

@testable import AASAServer

/// `https.port` beside `http.port`: both listeners at once, per-host
/// certificates with no default, and a refused handshake that says why.
@Suite("HTTPS listener")
struct HTTPSListenerTests {
    static func get(_ host: String) -> String {
        "GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"
    }

    /// A site with `a.example` (own certificate), `b.example` (none) and
    /// `www.a.example` (a symlinked alias of `a.example`).
    struct Fixture {
        let site: TemporarySite
        let ca: DevCertificateAuthority
        let logs = CapturedLogs()

        init() throws {
            site = try TemporarySite()
            ca = try DevCertificateAuthority()
            try site.write(SampleFile.aasa(app: "ABCDE12345.com.a.app"), host: "a.example")
            try site.write(SampleFile.aasa(app: "ABCDE12345.com.b.app"), host: "b.example")
            try site.symlink("www.a.example", to: "a.example")
            try TLSTests.write(try ca.issue(names: ["a.example"]), to: site.path + "/a.example/tls")
        }

        var configuration: ServerConfiguration {
            var configuration = site.configuration()
            configuration.https = .init(bind: "127.0.0.1", port: 0)
            return configuration
        }

        func run(
            _ configuration: ServerConfiguration,
            refusalLogInterval: TimeAmount = RateLimitedLog.defaultInterval,
            _ body: @Sendable (_ http: Int, _ https: Int) async throws -> Void
        ) async throws {
            let origin = AASAOrigin(
                configuration: configuration,
                logger: logs.logger,
                descriptorLimit: .system,
                refusalLogInterval: refusalLogInterval
            )
            try await origin.initialLoad()
            let group = ServiceGroup(configuration: .init(services: try origin.makeServices(), logger: logs.logger))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                defer { Task { await group.triggerGracefulShutdown() } }
                try await body(try await origin.httpAddress.port(), try await origin.httpsAddress.port())
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
    }

    @Test func servesPlainAndTLSAtOnceWithoutADefaultCertificate() async throws {
        let fixture = try Fixture()
        let caPEM = try fixture.ca.certificatePEM
        try await fixture.run(fixture.configuration) { http, https in
            let plain = try await TestHTTPClient(port: http).exchange(Self.get("b.example"))
            #expect(plain.first?.status == 200)
            #expect(plain.first?.bodyText.contains("com.b.app") == true)
            let secure = try await TestHTTPClient(port: https, tls: ("a.example", caPEM)).exchange(
                Self.get("a.example")
            )
            #expect(secure.first?.status == 200)
            #expect(secure.first?.bodyText.contains("com.a.app") == true)
            // The HTTPS port speaks only TLS.
            #expect((try? await TestHTTPClient(port: https).exchange(Self.get("a.example")))?.first?.status != 200)
        }
    }

    @Test func aHostWithoutACertificateFailsTheHandshakeAndTheLogSaysWhich() async throws {
        let fixture = try Fixture()
        let caPEM = try fixture.ca.certificatePEM
        try await fixture.run(fixture.configuration) { _, https in
            await #expect(throws: (any Error).self) {
                _ = try await TestHTTPClient(port: https, tls: ("b.example", caPEM)).exchange(Self.get("b.example"))
            }
        }
        // A second run: the refusal line is rate-limited per reason, and
        // this one has the same reason as b.example's.
        try await fixture.run(fixture.configuration) { _, https in
            // An alias shares a.example's files, not its certificate (which does not name it).
            await #expect(throws: (any Error).self) {
                _ = try await TestHTTPClient(port: https, tls: ("www.a.example", caPEM))
                    .exchange(Self.get("www.a.example"))
            }
        }
        let refused = fixture.logs.all.filter { $0.message.hasPrefix("TLS handshake refused") }
        #expect(
            refused.contains {
                $0.metadata["server_name"] == "b.example" && $0.message.contains("no certificate of its own")
            }
        )
        #expect(refused.contains { $0.metadata["server_name"] == "www.a.example" })
        let startup = fixture.logs.all.first { $0.message.hasPrefix("HTTPS handshakes for these hosts will fail") }
        #expect(startup?.metadata["hosts"] == "b.example")
    }

    /// Handshakes naming hosts we do not serve are anyone's to send: 20 of
    /// them are one log line (see ``HandshakeRefusalLog``), not 20. The
    /// line's interval is one no run of the suite reaches: with the 10 s
    /// default the 20 handshakes, one after another, had to fall within
    /// 10 s of wall time, which a busy run need not give (the interval
    /// itself is tested on a clock of its own in HandshakeRefusalLogTests).
    @Test func aFloodOfRefusedHandshakesIsOneLogLine() async throws {
        let fixture = try Fixture()
        let caPEM = try fixture.ca.certificatePEM
        try await fixture.run(fixture.configuration, refusalLogInterval: .hours(1)) { _, https in
            for index in 0..<20 {
                let host = "probe\(index).example"
                await #expect(throws: (any Error).self) {
                    _ = try await TestHTTPClient(port: https, tls: (host, caPEM)).exchange(Self.get(host))
                }
            }
        }
        let refused = fixture.logs.all.filter { $0.message.hasPrefix("TLS handshake refused") }
        #expect(refused.count == 1)
        #expect(refused.first?.metadata["server_name"] == "probe0.example")
    }

    @Test func theDefaultCertificateAnswersHostsWithoutTheirOwn() async throws {
        let fixture = try Fixture()
        let caPEM = try fixture.ca.certificatePEM
        let defaults = try TemporarySite()
        try TLSTests.write(try fixture.ca.issue(names: ["b.example", "www.a.example"]), to: defaults.path)
        var configuration = fixture.configuration
        configuration.tls = .init(certificatePath: defaults.path + "/cert.pem", keyPath: defaults.path + "/key.pem")
        try await fixture.run(configuration) { _, https in
            for host in ["b.example", "www.a.example", "a.example"] {
                let response = try await TestHTTPClient(port: https, tls: (host, caPEM)).exchange(Self.get(host))
                #expect(response.first?.status == 200, "\(host)")
            }
        }
    }

    @Test func aServerNameIsEscapedInTheLog() {
        let logs = CapturedLogs()
        HandshakeRefusalLog(logger: logs.logger).record(serverName: "evil.example\nlevel=critical", snapshot: .empty)
        #expect(logs.all.first?.metadata["server_name"] == "evil.example\\x0Alevel=critical")
        #expect(logs.all.first?.message.contains("not a served host") == true)
    }

    @Test func aDefaultCertificateWithoutHTTPSPortIsAStartupError() async throws {
        let fixture = try Fixture()
        var configuration = fixture.site.configuration()
        configuration.tls = .init(
            certificatePath: fixture.site.path + "/a.example/tls/cert.pem",
            keyPath: fixture.site.path + "/a.example/tls/key.pem"
        )
        let origin = AASAOrigin(configuration: configuration, logger: fixture.logs.logger)
        try await origin.initialLoad()
        #expect(throws: StartupError.self) { try origin.makeServices() }
    }

    @Test func httpsWithNoCertificateAtAllIsAStartupError() async throws {
        let fixture = try Fixture()
        try fixture.site.remove("a.example/tls")
        let origin = AASAOrigin(configuration: fixture.configuration, logger: fixture.logs.logger)
        try await origin.initialLoad()
        #expect { try origin.makeServices() } throws: {
            ($0 as? StartupError)?.message.contains("aasa dev-cert") == true
        }
    }
}
