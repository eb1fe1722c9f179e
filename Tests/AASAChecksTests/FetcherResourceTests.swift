import Foundation
import NIOCore
import Testing

@testable import AASAChecks

/// What a run over many hosts costs the machine: `aasa check` is pointed at
/// hundreds of domains, so nothing it holds may grow with their number.
@Suite struct FetcherResourceTests {
    /// Hosts `host1.example` … under one wildcard certificate.
    private static func hosts(_ count: Int) -> [String] { (1...count).map { "host\($0).example" } }

    /// A well-behaved origin presenting one `*.example` certificate from a
    /// private CA, and the `--ca-file` that trusts it.
    private static func withWildcardOrigin(
        _ body: (FakeHTTPServer, _ caFile: String) async throws -> Void
    )
        async throws
    {
        let certificates = try TestCertificates()
        let caFile = try certificates.writeCAFile()
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        let leaf = try certificates.issue(names: ["*.example"])
        try await FakeHTTPServer.with(tls: try TestCertificates.serverContext(leaf), HostCheckTests.origin()) {
            server in
            try await body(server, caFile)
        }
    }

    /// Every verified fetch used to build its own client, and with it a TLS
    /// context holding the trust roots (about 1 MB each, never given back):
    /// 300 hosts with --ca-file peaked at 920 MB. One client now serves the
    /// run; its context is built once.
    @Test func oneClientServesAllHostsOfAVerifiedRun() async throws {
        try await Self.withWildcardOrigin { server, caFile in
            let routes = Self.hosts(100).map { ResolveOverride(domain: $0, port: server.port, address: "127.0.0.1") }
            let fetcher = try HTTPFetcher(configuration: .init(timeout: .seconds(30), caFile: caFile, resolve: routes))
            let check = HostCheck(fetcher: fetcher)
            for host in Self.hosts(100) {
                let target = try HostTarget("https://\(host):\(server.port)").connecting(per: routes)
                let report = await check.run(target)
                #expect(report.check("tls.trusted")?.status == .pass, "\(host)")
                #expect(report.check("http.status")?.status == .pass, "\(host)")
            }
            #expect(fetcher.clientsCreated == 1)
            await fetcher.shutdown()
        }
    }

    /// `--base-url` moves each host's connection on its own; the clients
    /// that routing needs are kept to a few, whatever the number of hosts.
    @Test func adHocRoutesKeepFewClientsAlive() async throws {
        try await Self.withWildcardOrigin { server, caFile in
            let fetcher = try HTTPFetcher(configuration: .init(timeout: .seconds(30), caFile: caFile))
            let check = HostCheck(fetcher: fetcher)
            var mostAlive = 0
            for host in Self.hosts(100) {
                let report = await check.run(try HostTarget(host, baseURL: server.baseURL))
                #expect(report.check("tls.trusted")?.status == .pass, "\(host)")
                mostAlive = max(mostAlive, fetcher.clientsAlive)
            }
            #expect(mostAlive <= FetchClients.idleLimit + 1)
            await fetcher.shutdown()
            #expect(fetcher.clientsAlive == 0)
        }
    }

    /// A certificate for other names, and one from an untrusted CA: every
    /// connection is closed when the fetch fails (they stayed open until
    /// the process exited, and under a low descriptor limit later hosts
    /// failed with "Too many open files" instead of their TLS reason).
    @Test(arguments: [true, false])
    func rejectedCertificatesLeaveNoConnectionOpen(trustedCA: Bool) async throws {
        let certificates = try TestCertificates()
        let caFile = try certificates.writeCAFile()
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        try await FakeHTTPServer.with(tls: try certificates.serverContext(), HostCheckTests.origin()) { server in
            let fetcher = try HTTPFetcher(
                configuration: .init(timeout: .seconds(30), caFile: trustedCA ? caFile : nil)
            )
            let check = HostCheck(fetcher: fetcher)
            let reason = trustedCA ? "certificate name mismatch" : "is not a trusted CA"
            for host in Self.hosts(50) {
                let report = await check.run(try HostTarget(host, baseURL: server.baseURL))
                let trusted = try #require(report.check("tls.trusted"))
                #expect(trusted.status == .fail)
                #expect(trusted.message.contains(reason), "\(host): \(trusted.message)")
            }
            #expect(await server.connectionsOpen(after: .seconds(10)) == 0)
            #expect(server.requests.isEmpty)
            await fetcher.shutdown()
        }
    }
}
