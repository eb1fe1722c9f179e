import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Testing

@testable import AASAServer

/// The real origin on one event loop (serving and admin share it), with a
/// `/status` build held open: serving is answered meanwhile. Built on the
/// loop, the held build would stall the serving request past its deadline.
@Suite("Status off the event loop")
struct StatusOffLoopTests {
    static let hosts = 200

    static func run(
        _ site: TemporarySite,
        gate: StatusBuildGate,
        _ body: @Sendable (_ serving: TestHTTPClient, _ admin: TestHTTPClient) async throws -> Void
    ) async throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let origin = AASAOrigin(
            configuration: site.configuration(admin: true),
            logger: logger,
            group: loops,
            descriptorLimit: .system,
            willBuildStatus: gate.hold
        )
        try await origin.initialLoad()
        let services = ServiceGroup(configuration: .init(services: try origin.makeServices(), logger: logger))
        do {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await services.run() }
                do {
                    try await body(
                        TestHTTPClient(port: try await origin.httpAddress.port()),
                        TestHTTPClient(port: try await origin.adminAddress.port())
                    )
                } catch {
                    gate.release()
                    await services.triggerGracefulShutdown()
                    try? await tasks.waitForAll()
                    throw error
                }
                await services.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        } catch {
            try? await loops.shutdownGracefully()
            throw error
        }
        try await loops.shutdownGracefully()
    }

    static func site() throws -> TemporarySite {
        let site = try TemporarySite()
        for index in 0..<hosts {
            try site.write(SampleFile.aasa(app: "ABCDE12345.com.h\(index).app"), host: "host\(index).example")
        }
        try site.write(SampleFile.invalid, host: "bad.example")
        return site
    }

    @Test(.timeLimit(.minutes(1))) func servingIsAnsweredWhileAStatusBuildIsHeld() async throws {
        let site = try Self.site()
        let gate = StatusBuildGate()
        try await Self.run(site, gate: gate) { serving, admin in
            let status = Task { try await admin.exchange(get("localhost", "/status")) }
            try await withDeadline(.seconds(10)) { await gate.waitForBuild() }
            let served = try await serving.exchange(get("host7.example"))
            #expect(served.first?.status == 200)
            #expect(served.first?.bodyText.contains("com.h7.app") == true)
            gate.release()
            let report = try #require(try await status.value.first)
            #expect(report.status == 200)
            #expect(report.header("Content-Type") == "application/json")
            let root = try #require(try JSONSerialization.jsonObject(with: Data(report.body)) as? [String: Any])
            #expect((root["hosts"] as? [Any])?.count == Self.hosts + 1)
            #expect(gate.builds == 1)
        }
    }

    /// Answers on one connection keep request order: a `/healthz`
    /// pipelined behind a `/status` still being built waits for it.
    @Test(.timeLimit(.minutes(1))) func pipelinedAnswersKeepRequestOrder() async throws {
        let site = try Self.site()
        let gate = StatusBuildGate()
        try await Self.run(site, gate: gate) { _, admin in
            let requests = get("localhost", "/status") + get("localhost", "/healthz") + get("localhost", "/status")
            let exchange = Task { try await admin.exchange(requests, responses: 3) }
            try await withDeadline(.seconds(10)) { await gate.waitForBuild() }
            gate.release()
            let responses = try await exchange.value.responses
            #expect(responses.map(\.status) == [200, 200, 200])
            #expect(
                responses.map { $0.header("Content-Type") } == ["application/json", "text/plain", "application/json"]
            )
            #expect(responses.count == 3 && responses[0].body == responses[2].body)
            #expect(gate.builds == 1)
        }
    }

    /// RFC 9112 §9.6 on the admin port: a client that shuts its write side
    /// right after asking for `/status` still gets the answer built later,
    /// then the connection closes (the guard's end waits for it).
    @Test(.timeLimit(.minutes(1))) func aHalfCloseWaitsForAStatusStillBeingBuilt() async throws {
        let site = try Self.site()
        let gate = StatusBuildGate()
        try await Self.run(site, gate: gate) { _, admin in
            let client = try await RawClient.connect(port: admin.port, autoRead: true)
            client.write(get("localhost", "/status") + get("localhost", "/healthz"))
            try await withDeadline(.seconds(10)) { await gate.waitForBuild() }
            try await client.shutdownOutput()
            gate.release()
            try await withDeadline(.seconds(10)) { try await client.waitUntilClosed() }
            #expect(client.responses.map(\.status) == [200, 200])
            #expect(client.responses.first?.header("Content-Type") == "application/json")
            #expect(client.trailingBytes == 0)
        }
    }

    /// The bound on answers waiting behind a pending `/status`: a client
    /// pipelining past it is dropped, and nothing is answered out of order.
    @Test(.timeLimit(.minutes(1))) func pipeliningPastTheWaitingBoundDropsTheConnection() async throws {
        let site = try Self.site()
        let gate = StatusBuildGate()
        try await Self.run(site, gate: gate) { serving, admin in
            let count = AdminHandler.maximumWaiting + 4
            let requests =
                get("localhost", "/status") + String(repeating: get("localhost", "/healthz"), count: count - 1)
            // Dropped means closed or reset with nothing answered; a client
            // still waiting at the exchange's deadline means not dropped.
            let exchange = Task { () -> String in
                do {
                    let exchange = try await admin.exchange(requests, responses: count)
                    return exchange.closed && exchange.responses.isEmpty ? "dropped" : "\(exchange.responses.count)"
                } catch is DeadlineExceeded {
                    return "still waiting"
                } catch {
                    return "dropped"
                }
            }
            try await withDeadline(.seconds(10)) { await gate.waitForBuild() }
            #expect(await exchange.value == "dropped")
            gate.release()
            #expect(try await serving.exchange(get("host1.example")).first?.status == 200)
        }
    }
}
