import Testing

@testable import AASAKit

/// Files compiled before a run (the CLI compiles its association file
/// while it reads the links file) change nothing the run reports: the run
/// takes them for the files they hold and compiles the others itself.
@Suite struct CompiledAheadTests {
    typealias Shared = SharedCompileTests

    /// With two of the three files compiled ahead (and one file no host
    /// serves), the report is byte for byte the report of a run that
    /// compiled every file itself, with coverage.
    @Test(arguments: [1, 2])
    func aRunWithFilesCompiledAheadReportsAsOneWithout(seed: UInt64) throws {
        var random = TestRandom(seed: 0xAE_AD00 + seed)
        let list = Shared.expectations(count: ParallelBatch.minimumChunk + 77, random: &random)
        let sites = Shared.sites(tagged: false)
        var ahead = LinkTestRunner(sites: sites, coverage: true)
        ahead.compiledAhead = LinkTestCompiledFiles([Shared.file(2), Shared.file(0), Shared.file(1, tag: "other")])
        let with = try ahead.run(list, app: .bundleID("com.example.app"))
        let without = try LinkTestRunner(sites: sites, coverage: true).run(list, app: .bundleID("com.example.app"))
        let rules = (LinkTestRuleTable(with), LinkTestRuleTable(without))
        #expect(rules.0.rules == rules.1.rules)
        #expect(
            with.resultLines(level: 2, rules: rules.0).joined()
                .elementsEqual(without.resultLines(level: 2, rules: rules.1).joined())
        )
        #expect(with.textLines(appColumn: true).joined().elementsEqual(without.textLines(appColumn: true).joined()))
        #expect(with.warnings == without.warnings)
        #expect(with.uncoveredRules?.map(\.warning) == without.uncoveredRules?.map(\.warning))
    }

    /// The hosts serving a file compiled ahead share that compile; a file
    /// not among them is compiled by the run, once.
    @Test func theRunTakesTheFilesCompiledAheadAndCompilesTheRest() throws {
        let sites = Shared.sites(tagged: false)
        let list = LinkExpectations(
            entries: [0, 1, 2, 3, 4, 7].enumerated().map { index, host in
                .init(url: "https://\(Shared.host(host))/shop/x", expectation: .matched, path: .root.appending(index))
            }
        )
        let compiled = LinkTestCompiledFiles([Shared.file(0)])
        let held = try #require(compiled.site(for: Shared.file(0)))
        #expect(compiled.site(for: Shared.file(1)) == nil)
        var runner = LinkTestRunner(sites: sites)
        runner.compiledAhead = compiled
        let plan = try LinkTestPlan(list, sites: sites, domain: nil)
        let loaded = plan.items.withUnsafeBufferPointer(runner.loadedSites)
        // h2 and h4 serve template 0 (held), h1 and h3 template 1, h0 and h7 template 2.
        for host in [2, 4] { #expect(loaded[Shared.host(host)]?.compiled === held) }
        let others = [1, 3, 0, 7].compactMap { loaded[Shared.host($0)]?.compiled }
        #expect(others.count == 4)
        #expect(others.allSatisfy { $0 !== held })
        #expect(others[0] === others[1] && others[2] === others[3] && others[1] !== others[2])
        #expect(loaded.values.map(\.slot).sorted() == Array(0..<loaded.count))
    }
}
