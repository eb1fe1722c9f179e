import Foundation
import NIOPosix
import Testing

@testable import AASAServer

/// The descriptor budget wired into the running origin, under a stand-in
/// open-file limit (a test may not lower the limit of the process it runs
/// in; the process tests in AASACLITests use a real `ulimit -n`): the
/// listeners enforce the lowered caps, `/status` reports them, and the
/// startup warning names the limit and both caps.
@Suite("Descriptor caps", .serialized)
struct DescriptorCapTests {
    /// Room for three serving connections and one admin connection beside
    /// the reserve of this machine's event loops.
    static func tightLimit(reserve: Int) -> DescriptorLimit.Source {
        DescriptorLimit.Source(read: { DescriptorLimit(soft: reserve + 4, hard: reserve + 4) }, raise: { _ in false })
    }

    static var reserve: Int {
        let loops = Array(MultiThreadedEventLoopGroup.singleton.makeIterator()).count
        return DescriptorBudget(maxConnections: 1, adminMaxConnections: nil, eventLoops: loops).reserve
    }

    @Test(.timeLimit(.minutes(1))) func loweredCapsAreEnforcedReportedAndLoggedOnce() async throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.a.app"), host: "a.example")
        let configuration = site.configuration(admin: true, limits: .init(maxConnections: 100))
        let limit = Self.tightLimit(reserve: Self.reserve)
        let harness = try await OriginHarness(configuration, descriptorLimit: limit)
        #expect(harness.origin.descriptors.effectiveMaxConnections == 3)
        #expect(harness.origin.descriptors.effectiveAdminMaxConnections == 1)

        let warnings = harness.log.all.filter { $0.level == .warning && $0.message.contains("open-file limit") }
        #expect(warnings.count == 1)
        let warning = try #require(warnings.first)
        #expect(warning.metadata["limit"] == "\(Self.reserve + 4)")
        #expect(warning.metadata["maxConnections"] == "100")
        #expect(warning.metadata["effectiveMaxConnections"] == "3")
        #expect(warning.metadata["effectiveAdminMaxConnections"] == "1")
        #expect(warning.message.contains("ulimit -n") && warning.message.contains("LimitNOFILE="))

        try await harness.run { harness in
            let port = try await harness.client.port
            var held: [RawClient] = []
            for _ in 0..<3 { held.append(try await OriginAbuseTests.settledConnection(port: port)) }
            #expect(held.count == 3)
            // The fourth serving connection is past the lowered cap.
            let refused = try? await harness.client.exchange(get("a.example")).first?.status
            #expect(refused == nil || refused == 503)
            #expect(harness.metrics.contains(#"aasa_connections_refused_total{listener="http"} 1"#))

            let status = try #require(try await harness.admin.exchange(get("localhost", "/status")).first)
            let root = try #require(try JSONSerialization.jsonObject(with: Data(status.body)) as? [String: Any])
            let descriptors = try #require(root["descriptors"] as? [String: Any])
            #expect(descriptors["limit"] as? Int == Self.reserve + 4)
            #expect(descriptors["maxConnections"] as? Int == 100)
            #expect(descriptors["effectiveMaxConnections"] as? Int == 3)
            #expect(descriptors["adminMaxConnections"] as? Int == 64)
            #expect(descriptors["effectiveAdminMaxConnections"] as? Int == 1)
            #expect(descriptors["reserve"] as? Int == Self.reserve)
            for connection in held { try await connection.channel.close() }
        }
    }

    /// A limit that cannot hold the reserve plus a connection per listener
    /// stops the start, with the typed error `aasa serve` exits 2 on.
    @Test func aLimitBelowTheReserveStopsTheStart() async throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(), host: "a.example")
        let soft = Self.reserve + 1
        let origin = AASAOrigin(
            configuration: site.configuration(admin: true),
            logger: CapturedLogs().logger,
            descriptorLimit: DescriptorLimit.Source(
                read: { DescriptorLimit(soft: soft, hard: soft) },
                raise: { _ in false }
            )
        )
        #expect(throws: DescriptorShortage.self) { try origin.checkDescriptors() }
        let error = await #expect(throws: StartupError.self) { try await origin.initialLoad() }
        #expect(error?.message.contains("too low to serve") == true)
        #expect(origin.store.snapshot.sites.isEmpty, "nothing was loaded")
    }
}
