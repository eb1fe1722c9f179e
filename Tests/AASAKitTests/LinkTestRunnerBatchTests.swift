import Testing

@testable import AASAKit

/// A list long enough to be split across the cores must come out exactly
/// as URL-by-URL evaluation says: results in list order, each URL's
/// decision, warnings once, coverage over every chunk.
@Suite struct LinkTestRunnerBatchTests {
    static let file = """
        {"applinks": {"details": [{
          "appIDs": ["ABCDE12345.com.example.shop", "ZYXWV98765.com.example.shop"],
          "components": [
            {"/": "/account/*", "exclude": true},
            {"/": "/shop/*"},
            {"/": "/help/*", "?": {"q": "?*"}},
            {"#": "promo"},
            {"/": "/never/*"}
          ]}]}}
        """

    /// More entries than several chunks hold, mixing every decision.
    static func entries(count: Int) -> [LinkExpectations.Entry] {
        let shapes = ["/shop/%d", "/account/%d", "/help/%d?q=x", "/help/%d", "/other/%d#promo", "/other/%d"]
        return (0..<count).map { index in
            let path = shapes[index % shapes.count].replacing("%d", with: "\(index)")
            // Every seventh entry expects the opposite of what the rules say, so failures are spread too.
            let opens = path.hasPrefix("/shop") || path.hasPrefix("/help/\(index)?") || path.hasSuffix("#promo")
            let expectation: LinkExpectations.Expectation = (opens != (index % 7 == 0)) ? .matched : .notMatched
            return LinkExpectations.Entry(url: "https://example.com" + path, expectation: expectation)
        }
    }

    @Test func longListMatchesEvaluationOneByOne() throws {
        let file = try MatcherFixture.parse(Self.file)
        let entries = Self.entries(count: ParallelBatch.minimumChunk * 3 + 17)
        let report = try LinkTestRunner(file: file, domain: "example.com", coverage: true)
            .run(LinkExpectations(entries: entries), app: .bundleID("com.example.shop"))

        let matcher = AASAMatcher(file: file)
        let appIDs = ["ABCDE12345.com.example.shop", "ZYXWV98765.com.example.shop"]
        #expect(report.results.count == entries.count * appIDs.count)
        var failures = 0
        for (index, entry) in entries.enumerated() {
            let url = try AASAURL(entry.url)
            for (offset, appID) in appIDs.enumerated() {
                let result = report.results[index * appIDs.count + offset]
                let expected = matcher.evaluate(url, appID: appID)
                #expect(result.entry.url == entry.url)
                #expect(result.appID == appID)
                #expect(result.decision == expected.decision, "\(entry.url)")
                #expect(result.rule?.ruleIndex == expected.rule?.ruleIndex, "\(entry.url)")
                let opens = expected.decision == .matched
                #expect(result.passed == (opens == (entry.expectation == .matched)), "\(entry.url)")
                if !result.passed { failures += 1 }
            }
        }
        #expect(report.failedCount == failures)
        #expect(failures > 0)
        // The bundle ID names two apps: said once, not once per URL or per chunk.
        #expect(report.warnings.filter { $0.code == "links.ambiguous-bundle-id" }.count == 1)
        // Only /never/* decides nothing, whichever chunk saw the others.
        #expect(report.uncoveredRules?.map(\.rule.path.description) == ["applinks.details[0].components[4]"])
    }

    /// Each host's file gives each app other rules, so a URL judged with
    /// the site or app of the URL before it (a record's cached site) gets
    /// another decision, rule or site.
    static let crossedFiles = [
        "example.com": """
        {"applinks": {"details": [
          {"appIDs": ["ABCDE12345.com.example.one"], "components": [{"/": "/a/*"}]},
          {"appIDs": ["VWXYZ67890.com.example.two"], "components": [{"/": "/b/*"}]}]}}
        """,
        "www.example.com": """
        {"applinks": {"details": [
          {"appIDs": ["VWXYZ67890.com.example.two"], "components": [{"/": "/a/*"}]},
          {"appIDs": ["ABCDE12345.com.example.one"], "components": [{"/": "/c/*"}, {"/": "/b/*"}]}]}}
        """,
    ]

    @Test(arguments: [1, 2])
    func hostsAndAppsChangingFromURLToURL(seed: UInt64) throws {
        var random = TestRandom(seed: 0x5175_0000 + seed)
        let files = try Self.crossedFiles.mapValues { try MatcherFixture.parse($0) }
        let sites = LinkTestSites(byHost: files.mapValues { .init(name: "site", content: .file($0)) })
        let hosts = files.keys.sorted()
        let apps: [LinkTestApp?] = [nil, .appID("VWXYZ67890.com.example.two"), .appID("ABCDE12345.com.example.one")]
        let runApp = "ABCDE12345.com.example.one"
        var expected: [(site: String, appID: String, decision: MatchDecision, rule: Int?)] = []
        let entries = try (0..<(ParallelBatch.minimumChunk * 2 + 13)).map { index in
            // Runs of one host or app now and then, changes mostly.
            let host = hosts[random.below(5) == 0 ? 0 : index % 2]
            let app = apps[random.below(apps.count)]
            let url = "https://\(host)/\(["a", "b", "c"][random.below(3)])/\(index)"
            let appID = app?.description ?? runApp
            let result = AASAMatcher(file: files[host]!).evaluate(try AASAURL(url), appID: appID)
            expected.append((host, appID, result.decision, result.rule?.ruleIndex))
            // Expecting what the file decides: every record stays lean.
            var entry = LinkExpectations.Entry(
                url: url,
                expectation: result.decision == .matched ? .matched : .notMatched
            )
            entry.app = app
            return entry
        }
        let report = try LinkTestRunner(sites: sites).run(LinkExpectations(entries: entries), app: .appID(runApp))
        #expect(try #require(report.records).table.withRecords { $0.allSatisfy(\.isLean) })
        #expect(expected.contains { $0.decision == .matched } && expected.contains { $0.decision == .none })
        for (result, expected) in zip(report.results, expected) {
            #expect(result.site == expected.site, "\(result.entry.url)")
            #expect(result.appID == expected.appID, "\(result.entry.url)")
            #expect(result.decision == expected.decision, "\(result.entry.url)")
            #expect(result.rule?.ruleIndex == expected.rule, "\(result.entry.url)")
        }
        #expect(report.failedCount == 0)
    }
}
