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
}
