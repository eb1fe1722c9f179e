import AASAKit
import Testing

/// `--coverage`: the rules no URL of the list decides.
@Suite struct LinkCoverageTests {
    static let file = AASAFile(json: [
        "applinks": [
            "details": [
                [
                    "appIDs": ["ABCDE12345.com.example.app"],
                    "components": [
                        ["/": "/account/*", "exclude": true],
                        ["/": "/shop/*"],
                        ["/": "/shop/special"],
                        ["/": "/help/*"],
                    ],
                ],
                ["appIDs": ["ABCDE12345.com.example.staff"], "components": [["/": "/staff/*"]]],
            ]
        ]
    ])

    private func uncovered(_ urls: [String], coverage: Bool = true) throws -> [String]? {
        let list = LinkExpectations(entries: urls.map { .init(url: $0, expectation: .notMatched) })
        let runner = LinkTestRunner(file: Self.file, domain: "example.com", coverage: coverage)
        let report = try runner.run(list, app: .bundleID("com.example.app"))
        #expect(report.warnings.filter { $0.code == "links.uncovered-rule" }.count == report.uncoveredRules?.count ?? 0)
        return report.uncoveredRules?.map(\.rule.path.description)
    }

    @Test func rulesThatDecideNoURLAreListed() throws {
        let rules = try uncovered(["https://example.com/account/1", "https://example.com/shop/special"])
        // /shop/special only ever loses to /shop/*; the staff app was not tested.
        #expect(rules == ["applinks.details[0].components[2]", "applinks.details[0].components[3]"])
    }

    @Test func anHTTPURLExercisesNoRule() throws {
        let rules = try uncovered(["http://example.com/help/1", "https://example.com/account/1"])
        #expect(rules?.contains("applinks.details[0].components[3]") == true)
    }

    @Test func everyRuleDecidingSomethingIsCovered() throws {
        let rules = try uncovered([
            "https://example.com/account/1", "https://example.com/shop/1", "https://example.com/help",
        ])
        #expect(rules == ["applinks.details[0].components[2]"])
    }

    @Test func withoutCoverageNothingIsListed() throws {
        #expect(try uncovered(["https://example.com/shop/1"], coverage: false) == nil)
    }

    @Test func uncoveredRulesWarnInTheAssociationFile() throws {
        let list = LinkExpectations(entries: [.init(url: "https://example.com/shop/1", expectation: .matched)])
        let report = try LinkTestRunner(file: Self.file, domain: "example.com", coverage: true)
            .run(list, app: .bundleID("com.example.app"))
        let warning = try #require(report.warnings.first)
        #expect(warning.file == "example.com")
        #expect(warning.path.description == "applinks.details[0].components[0]")
        #expect(warning.message.contains(#"exclusion {"/":"/account/*","exclude":true}"#))
        #expect(report.succeeded(strict: false))
        #expect(!report.succeeded(strict: true))
    }
}
