import AASAKit
import Foundation
import Testing

@Suite struct LinkTestRunnerTests {
    private static let shop: JSONValue = [
        "applinks": [
            "details": [
                [
                    "appIDs": ["ABCDE12345.com.example.shop", "ZYXWV98765.com.example.other"],
                    "components": [
                        ["/": "/account/*", "exclude": true],
                        ["/": "/shop/*"],
                        ["#": "promo"],
                    ],
                ]
            ]
        ]
    ]

    private func run(
        _ expectations: String,
        file: JSONValue = shop,
        app: LinkTestApp? = .bundleID("com.example.shop")
    ) throws -> LinkTestReport {
        let list = try LinkExpectations(bytes: Array(expectations.utf8), file: "links.json")
        return try LinkTestRunner(file: AASAFile(json: file), domain: "example.com").run(list, app: app)
    }

    private func fixture(_ name: String) throws -> [UInt8] {
        let base = try #require(Bundle.module.resourceURL)
        return Array(try Data(contentsOf: base.appending(path: "Fixtures/lieferando/\(name)")))
    }

    // The seed's own example: variables, $(lang), fragments, and a URL typed
    // with an accent that must be encoded before it meets the encoded pattern.
    @Test(arguments: [LinkTestApp.bundleID("com.lieferando.app"), .appID("ABCDE12345.com.lieferando.app")])
    func lieferandoFixturePasses(app: LinkTestApp) throws {
        let file = AASAFile(json: try JSONParser().parse(try fixture("apple-app-site-association")).value)
        let list = try LinkExpectations(bytes: try fixture("links.json"), file: "links.json")
        let report = try LinkTestRunner(file: file, domain: "lieferando.de").run(list, app: app)
        #expect(report.failures.map(\.summary) == [])
        #expect(report.passedCount == 12)
        let accented = try #require(report.results.first { $0.entry.url.hasSuffix("#cartes-épargne") })
        #expect(accented.decision == .matched)
        #expect(accented.rule?.path.description == "applinks.details[0].components[4]")
    }

    // Why the fixture keeps percentEncoded at its default (true): the URL
    // reaches the matcher as cartes-%C3%A9pargne. With false, the fragment is
    // decoded first, so the encoded value no longer matches and the
    // unencoded spelling does.
    @Test(arguments: [
        (true, "cartes-%C3%A9pargne", MatchDecision.matched),
        (false, "cartes-%C3%A9pargne", .none),
        (false, "cartes-épargne", .matched),
        (true, "cartes-épargne", .none),
    ])
    func accentedFragmentFollowsPercentEncoded(percentEncoded: Bool, value: String, decision: MatchDecision) throws {
        let file: JSONValue = [
            "applinks": [
                "substitutionVariables": ["stamp-cards": [.string(value)]],
                "details": [
                    [
                        "appIDs": ["ABCDE12345.com.lieferando.app"],
                        "components": [
                            ["/": "/$(lang)", "#": "$(stamp-cards)", "percentEncoded": .bool(percentEncoded)]
                        ],
                    ]
                ],
            ]
        ]
        let list = LinkExpectations(entries: [
            .init(url: "https://lieferando.de/fr#cartes-épargne", expectation: .matched)
        ])
        let report = try LinkTestRunner(file: AASAFile(json: file), domain: "lieferando.de").run(list)
        #expect(report.results.first?.decision == decision)
    }

    @Test func lieferandoWithoutDomainUsesEachURLsHost() throws {
        let file = AASAFile(json: try JSONParser().parse(try fixture("apple-app-site-association")).value)
        let list = try LinkExpectations(bytes: try fixture("links.json"))
        let report = try LinkTestRunner(file: file).run(list)
        #expect(report.failedCount == 0)
    }

    /// A list long enough to be rendered in parallel chunks: one compact
    /// object per line, in list order, commas between, and each line the
    /// result's own JSON with its rule named by its index in the table.
    @Test func resultLinesAreEachResultInOrder() throws {
        let urls = (0..<5_000).map { #""https://example.com/shop/\#($0)""# }.joined(separator: ",")
        let report = try run(#"{"deep_linkable_urls": [\#(urls)]}"#)
        let table = LinkTestRuleTable(report.results)
        let text = String(decoding: report.resultLines(level: 2, rules: table).joined(), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 5_000)
        #expect(lines.allSatisfy { $0.hasPrefix("    {") })
        let array = try JSONParser().parse("[\(text)]").value.arrayValue ?? []
        let rules = try table.rules.map { try JSONParser().parse($0).value }
        #expect(rules.count == 1)
        #expect(rules.first?["site"] == "example.com")
        // Each line with its rule put back in place is the result's own JSON.
        let inlined = array.map { line -> JSONValue in
            guard var object = line.objectValue, let index = line["rule"]?.numberValue.map({ Int($0) }) else {
                return line
            }
            var rule = rules[index].objectValue ?? JSONObject()
            rule["site"] = nil
            object["rule"] = .object(rule)
            return .object(object)
        }
        #expect(try inlined == report.results.map { try $0.json })
        #expect(array.last?["url"] == "https://example.com/shop/4999")
        #expect(array.last?["rule"] == 0)
        #expect(rules.first?["path"] == "applinks.details[0].components[1]")
    }

    @Test func deepLinkableURLsPass() throws {
        let report = try run(#"{"deep_linkable_urls": ["https://example.com/shop/42", "https://example.com/x#promo"]}"#)
        #expect(report.summaryLine == "2 passed, 0 failed")
        #expect(report.results.allSatisfy { $0.appID == "ABCDE12345.com.example.shop" })
    }

    @Test func unhandledWhenNoRuleMatches() throws {
        let report = try run(#"{"deep_linkable_urls": ["https://example.com/about"]}"#)
        let result = try #require(report.results.first)
        #expect(result.failure == .unhandled)
        #expect(result.decision == MatchDecision.none)
        #expect(result.rule == nil)
        #expect(result.summary.hasPrefix("unhandled: no rule matched"))
    }

    @Test func excludedNamesTheExclusion() throws {
        let report = try run(#"{"deep_linkable_urls": ["https://example.com/account/orders"]}"#)
        let result = try #require(report.results.first)
        #expect(result.failure == .excluded)
        #expect(result.rule?.path.description == "applinks.details[0].components[0]")
        #expect(result.summary.contains(#"applinks.details[0].components[0] {"/":"/account/*","exclude":true}"#))
    }

    @Test func incorrectlyHandledNamesTheRule() throws {
        let report = try run(
            #"{"non_deep_linkable_urls": ["https://example.com/shop/basket", "https://example.com/account/x"]}"#
        )
        #expect(report.summaryLine == "1 passed, 1 failed")
        let failure = try #require(report.failures.first)
        #expect(failure.failure == .incorrectlyHandled)
        #expect(failure.rule?.path.description == "applinks.details[0].components[1]")
    }

    @Test func richerEntriesNameTheExactDecision() throws {
        let report = try run(
            #"""
            {"links": [
              {"url": "https://example.com/account/a", "expect": "blocked"},
              {"url": "https://example.com/about", "expect": "none"},
              {"url": "https://example.com/account/b", "expect": "none"},
              {"url": "https://example.com/about", "expect": "blocked"},
              {"url": "https://example.com/shop/1", "expect": "matched", "appID": "ZYXWV98765.com.example.other"}
            ]}
            """#
        )
        #expect(report.results.map(\.failure) == [nil, nil, .excluded, .unhandled, nil])
        #expect(report.results.last?.appID == "ZYXWV98765.com.example.other")
    }

    @Test func unparsableURLIsAReportedFailure() throws {
        let report = try run(
            #"{"deep_linkable_urls": ["not a url", "ftp://example.com/shop/1", "https://example.com/shop/1"]}"#
        )
        #expect(report.results.map(\.failure) == [.invalidURL, .invalidURL, nil])
        #expect(report.results.first?.message.isEmpty == false)
    }

    @Test func unknownBundleIDIsOneSetupErrorNotAFailurePerURL() throws {
        #expect {
            try run(
                #"{"deep_linkable_urls": ["https://example.com/shop/1"], "non_deep_linkable_urls": ["https://example.com/a"]}"#,
                app: .bundleID("com.example.typo")
            )
        } throws: { error in
            guard case .unknownApps(let apps) = error as? LinkTestSetupError else { return false }
            return apps.map(\.app) == [.bundleID("com.example.typo")] && apps.first?.sources == [.run]
        }
    }

    @Test func bundleIDIgnoresPrefixesOfAnyLength() throws {
        let file: JSONValue = [
            "applinks": ["details": [["appIDs": ["ABCD1234.com.example.app"], "components": [["/": "*"]]]]]
        ]
        let report = try run(
            #"{"deep_linkable_urls": ["https://example.com/"]}"#,
            file: file,
            app: .bundleID("com.example.app")
        )
        #expect(report.results.map(\.appID) == ["ABCD1234.com.example.app"])
        #expect(report.failedCount == 0)
    }

    @Test func noAppWithSeveralListedIsASetupError() throws {
        #expect {
            try run(#"{"deep_linkable_urls": ["https://example.com/shop/1"]}"#, app: nil)
        } throws: { error in
            guard case .noAppGiven(let listed, _) = error as? LinkTestSetupError else { return false }
            return listed == ["ABCDE12345.com.example.shop", "ZYXWV98765.com.example.other"]
        }
    }

    // A URL of another host used to be "unhandled" and, worse, a
    // non-deep-linkable one passed. With the file's domain given, only that
    // host's URLs are tested; the others are skipped with a warning.
    @Test func otherHostIsSkippedWithAWarning() throws {
        let report = try run(
            #"{"deep_linkable_urls": ["https://example.com/shop/1"], "non_deep_linkable_urls": ["https://other.example/shop/1"]}"#
        )
        #expect(report.results.map(\.entry.url) == ["https://example.com/shop/1"])
        #expect(report.skipped.map(\.url) == ["https://other.example/shop/1"])
        #expect(report.warnings.map(\.code) == ["links.other-host"])
        #expect(report.succeeded(strict: false))
        #expect(!report.succeeded(strict: true))
    }

    @Test func everyURLForAnotherHostIsASetupError() throws {
        #expect {
            try run(#"{"non_deep_linkable_urls": ["https://other.example/shop/1"]}"#)
        } throws: { error in
            guard case .nothingToTest(let domain, let hosts) = error as? LinkTestSetupError else { return false }
            return domain == "example.com" && hosts == ["other.example"]
        }
    }
}
