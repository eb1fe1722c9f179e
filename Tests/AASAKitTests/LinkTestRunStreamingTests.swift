import Dispatch
import Foundation
import Testing

@testable import AASAKit

/// A run renders its text while its records are still being made
/// (``LinkTestRun``): the header's apps come from the plan, the windows
/// from the records made so far. Both must be what the finished report
/// says, for lists mixing every outcome (the differential suite's).
@Suite struct LinkTestRunStreamingTests {
    typealias Lists = LinkTestRecordsDifferentialTests

    static let otherApp = LinkTestApp.appID("VWXYZ67890.com.example.other")

    /// Random lists, some entries naming the file's other app (so that the
    /// run covers two apps), run with and without a package for Android.
    static func lists() -> [(entries: [LinkExpectations.Entry], package: String?)] {
        (0..<6).map { seed in
            var random = TestRandom(seed: 0x5743_A000 + UInt64(seed))
            var entries = Lists.entries(count: ParallelBatch.minimumChunk * 3 + 77 * seed, random: &random)
            if seed % 2 == 1 {
                for index in entries.indices where entries[index].platform == .apple && random.below(50) == 0 {
                    entries[index].app = otherApp
                }
            }
            return (entries, seed % 3 == 2 ? nil : "com.example.app")
        }
    }

    static func start(_ entries: [LinkExpectations.Entry], package: String?) throws -> LinkTestRun {
        try LinkTestRunner(sites: Lists.sites).start(
            LinkExpectations(entries: entries),
            app: Lists.app,
            package: package
        )
    }

    /// The apps worked out from the plan before any record is made are the
    /// apps of the records once made: each Apple entry's first app ID of its
    /// host's file, none for a URL that cannot be tested, each Android
    /// entry's package.
    @Test func plannedAppsAreTheAppsOfTheResults() throws {
        var sawTwo = false
        var sawPackage = false
        for (entries, package) in Self.lists() {
            let run = try Self.start(entries, package: package)
            #expect(run.streams)
            let planned = run.apps
            let report = run.report()
            #expect(planned == Set(report.results.compactMap(\.app)))
            #expect(planned == report.apps)
            sawTwo = sawTwo || planned.contains("VWXYZ67890.com.example.other")
            sawPackage = sawPackage || planned.contains("com.example.app")
        }
        // The lists reach both the app column and an Android package.
        #expect(sawTwo && sawPackage)
    }

    /// A run restricted to one host: the other hosts' entries are skipped,
    /// and the planned apps are still the results' apps.
    @Test func plannedAppsOfARunForOneHost() throws {
        for (entries, package) in Self.lists() {
            let run = try LinkTestRunner(sites: Lists.sites, domain: "www.example.com")
                .start(LinkExpectations(entries: entries), app: Lists.app, package: package)
            #expect(run.streams)
            let planned = run.apps
            #expect(!planned.isEmpty)
            #expect(planned == run.report().apps)
        }
    }

    /// An entry naming its own app among URLs of one host: the host repeats,
    /// the app does not, so the entry's app is among the run's.
    @Test func anEntryAppAmongURLsOfOneHostCounts() throws {
        var entries = (0..<5).map {
            LinkExpectations.Entry(url: "https://example.com/shop/\($0)", expectation: .matched)
        }
        entries[3].app = Self.otherApp
        let run = try Self.start(entries, package: nil)
        #expect(run.streams)
        #expect(run.apps == ["ABCDE12345.com.example.app", "VWXYZ67890.com.example.other"])
        #expect(run.report().apps == run.apps)
    }

    /// The windows rendered while the run goes on are the finished
    /// report's text, with and without the app column.
    @Test func streamedWindowsAreTheReportText() throws {
        for (entries, package) in Self.lists() {
            let run = try Self.start(entries, package: package)
            let appColumn = run.apps.count > 1
            let render = run.textLineWindows(appColumn: appColumn, buffers: WindowBuffers())
            var streamed: [UInt8] = []
            for start in stride(from: 0, to: run.resultCount, by: 5_000) {
                streamed += render(start..<min(start + 5_000, run.resultCount)).joined()
            }
            let finished = try LinkTestRunner(sites: Lists.sites)
                .run(LinkExpectations(entries: entries), app: Lists.app, package: package)
            let whole = LinkTestReport(results: finished.results, warnings: finished.warnings)
            #expect(streamed.elementsEqual(whole.textLines(appColumn: appColumn).joined()))
            #expect(run.report().failedCount == finished.failedCount)
        }
    }

    /// A bundle ID naming two apps of a file adds a result per app: the
    /// report is not the records, and the run renders it only once made.
    @Test func aBundleIDNamingSeveralAppsDoesNotStream() throws {
        let file = AASAFile(json: [
            "applinks": [
                "details": [
                    [
                        "appIDs": ["AAAAA11111.com.example.app", "BBBBB22222.com.example.app"],
                        "components": [["/": "*"]],
                    ]
                ]
            ]
        ])
        let sites = LinkTestSites(byHost: ["example.com": .init(name: "example.com", content: .file(file))])
        let entries = (0..<10).map {
            LinkExpectations.Entry(url: "https://example.com/\($0)", expectation: .matched)
        }
        let run = try LinkTestRunner(sites: sites)
            .start(LinkExpectations(entries: entries), app: .bundleID("com.example.app"))
        #expect(!run.streams)
        #expect(run.resultCount == 20)
        #expect(run.apps == ["AAAAA11111.com.example.app", "BBBBB22222.com.example.app"])
    }

    /// A prefix of the records can be read while a later chunk is still
    /// being made: waiting for it does not wait for the whole list.
    @Test func aPrefixIsReadyBeforeTheLastChunk() {
        let chunk = LinkTestRecordTable.chunk
        let held = DispatchSemaphore(value: 0)
        let table = LinkTestRecordTable(count: chunk * 6) {
            index,
            _ in
            // The fourth chunk waits until released, at most five minutes:
            // far longer than the prefix is waited for below, so a table
            // that makes its readers wait for every chunk fails, never
            // passes late.
            if index == chunk * 3 { _ = held.wait(timeout: .now() + 300) }
            return LinkTestRecord(
                side: -1,
                site: 0,
                app: 0,
                rule: Int32(index),
                decision: .matched,
                failure: nil,
                isHTTP: false
            )
        }
        let prefixReady = DispatchSemaphore(value: 0)
        Thread {
            table.wait(through: chunk * 3)
            prefixReady.signal()
        }
        .start()
        #expect(prefixReady.wait(timeout: .now() + 30) == .success)
        held.signal()
        table.wait(through: table.count)
        #expect(table.withRecords { records in records.indices.allSatisfy { records[$0].rule == Int32($0) } })
    }
}
