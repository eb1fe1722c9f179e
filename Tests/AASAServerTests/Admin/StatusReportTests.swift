import AASAKit
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOPosix
import Testing

@testable import AASAServer

/// `/status` at scale: the report does work linear in hosts plus issues, and
/// its body is built once per served state, one build at a time.
@Suite("Status report")
struct StatusReportTests {
    /// 2,000 hosts whose only file was rejected and 2,000 issues: each issue
    /// is looked at once (filtering all issues per host looked 4,000,000
    /// times), and each host lists exactly its own issue.
    @Test func eachIssueIsLookedAtOnce() throws {
        let hosts = 2_000
        var issues = (0..<hosts).map { index in
            LoadIssue(
                host: "host\(index).example",
                path: "host\(index).example/apple-app-site-association",
                code: .invalidFile(diagnostic: "json.syntax"),
                message: "issue \(index)"
            )
        }
        issues.append(LoadIssue(host: nil, path: "hosts.default", code: .defaultHostNotServed, message: "unattached"))
        let status = SiteStore.Status(isReady: true, issues: issues, warnings: [], lastErrors: [:])
        let looks = NIOLockedValueBox(0)
        var report = StatusReport(
            snapshot: .empty,
            status: status,
            redactor: PathRedactor(root: "/nonexistent-served-directory"),
            descriptors: nil
        )
        report.hostOf = { issue in
            looks.withLockedValue { $0 += 1 }
            return issue.host
        }
        let root = try #require(report.json.objectValue)
        #expect(looks.withLockedValue { $0 } == issues.count)
        let listed = try #require(root["hosts"]?.arrayValue)
        #expect(listed.count == hosts)
        for entry in listed {
            let object = try #require(entry.objectValue)
            let name = try #require(object["host"]?.stringValue)
            let index = try #require(Int(name.dropFirst(4).prefix { $0.isNumber }))
            #expect(object["issues"] == .array([.string("\(name)/apple-app-site-association: issue \(index)")]))
            #expect(object["served"] == .bool(false))
        }
        #expect(root["issues"] == .array([.string("hosts.default: unattached")]))
    }

    static func store(hosts: [String]) async throws -> (TemporarySite, AASAOrigin) {
        let site = try TemporarySite()
        for host in hosts { try site.write(SampleFile.aasa(app: "ABCDE12345.com.\(host.prefix(1)).app"), host: host) }
        try site.write(SampleFile.invalid, host: "bad.example")
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let origin = AASAOrigin(configuration: site.configuration(), logger: logger)
        try await origin.initialLoad()
        return (site, origin)
    }

    /// Requests during a build wait for it rather than starting their own;
    /// later requests get the kept body until a reload changes the state.
    @Test(.timeLimit(.minutes(1))) func oneBuildPerStateAndRequestsDuringItJoinIt() async throws {
        let (site, origin) = try await Self.store(hosts: ["a.example"])
        let gate = StatusBuildGate()
        let cache = StatusCache(store: origin.store) { snapshot, status in
            gate.hold()
            return Array("\(snapshot.sites.keys.sorted()) \(status.revision)".utf8)
        }
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let first = cache.body(on: loop)
        let second = cache.body(on: loop)
        try await withDeadline(.seconds(10)) { await gate.waitForBuild() }
        gate.release()
        let (a, b) = (try await first.get(), try await second.get())
        #expect(a == b)
        #expect(String(buffer: a).contains("a.example"))
        #expect(try await cache.body(on: loop).get() == a)
        #expect(gate.builds == 1)

        try site.write(SampleFile.aasa(app: "ABCDE12345.com.n.app"), host: "new.example")
        await origin.reloader.reload(.signal)
        let changed = try await cache.body(on: loop).get()
        #expect(String(buffer: changed).contains("new.example"))
        #expect(gate.builds == 2)
    }

    /// A failed load changes `/status` (its `lastFailure`) without a new
    /// snapshot: the kept body must not outlive it.
    @Test func aFailedLoadIsNotHiddenByTheKeptBody() async throws {
        let (_, origin) = try await Self.store(hosts: ["a.example"])
        let cache = StatusCache(store: origin.store) { _, status in Array((status.lastFailure ?? "none").utf8) }
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        #expect(String(buffer: try await cache.body(on: loop).get()) == "none")
        origin.store.recordFailure("cannot read the served directory")
        #expect(String(buffer: try await cache.body(on: loop).get()) == "cannot read the served directory")
    }
}
