import Testing

@testable import AASAKit

/// `LinkTestResult.json` reads back the bytes the report writer wrote: for
/// every failure kind (and a pass), on Apple and Android entries, those
/// bytes parse, and they are the object the results had when it was built
/// as a `JSONValue` (kept here as the reference).
@Suite struct LinkTestResultJSONTests {
    /// The object as it was built before the writer, key by key.
    static func reference(_ result: LinkTestResult) -> JSONValue {
        var object = JSONObject()
        object["url"] = .string(result.entry.url)
        object["expect"] = .string(result.entry.expectation.rawValue)
        object["passed"] = .bool(result.passed)
        if let site = result.site { object["site"] = .string(site) }
        if result.entry.platform != .apple { object["platform"] = .string(result.entry.platform.rawValue) }
        if let appID = result.appID { object["appID"] = .string(appID) }
        if let package = result.package { object["package"] = .string(package) }
        if let decision = result.decision { object["decision"] = .string(decision.rawValue) }
        if let failure = result.failure { object["failure"] = .string(failure.rawValue) }
        object["message"] = .string(result.message)
        if let rule = result.rule { object["rule"] = rule.json }
        if let dynamicRule = result.dynamicRule {
            object["rule"] = [
                "index": .number(Double(dynamicRule.index)),
                "path": .string(dynamicRule.path.description),
                "rule": dynamicRule.written,
            ]
        }
        if !result.notes.isEmpty { object["notes"] = .array(result.notes.map(JSONValue.string)) }
        if let explanation = result.explanation { object["explanation"] = explanation.json }
        object["entry"] = .string(result.entry.path.description)
        if let file = result.entry.file { object["linksFile"] = .string(file) }
        return .object(object)
    }

    static let failures: [LinkTestFailure?] = [nil] + LinkTestFailure.allCases

    /// An Apple result carrying every optional part, with `failure`.
    static func apple(_ failure: LinkTestFailure?) throws -> LinkTestResult {
        let file = try MatcherFixture.file(components: #"[{"/":"/buy/*","comment":"a \"quoted\" rule"}]"#)
        let url = try AASAURL("https://example.com/bu/1?q=é#x")
        let rule = MatchedRule(
            detailIndex: 0,
            ruleIndex: 0,
            path: JSONPath.root.appending("applinks").appending("details").appending(0),
            written: ["/": "/buy/*", "comment": "a \"quoted\" rule"],
            effective: ["/": "/buy/*"],
            viaDefaults: true,
            variables: ["shop"]
        )
        return LinkTestResult(
            entry: .init(
                url: "https://example.com/bu/1?q=é#x",
                expectation: .matched,
                path: JSONPath.root.appending("links").appending(3),
                file: "links/é.json"
            ),
            url: url,
            site: "example.com",
            appID: MatcherFixture.appID,
            decision: failure == nil ? .matched : MatchDecision.none,
            rule: rule,
            failure: failure,
            message: "line\nbreak \u{1} and \"quotes\"",
            notes: ["a note", "\u{7F} another"],
            explanation: NoMatchExplanation(file: file, url: url, appID: MatcherFixture.appID)
        )
    }

    /// A bare result: no URL, site, app or rule (a line that could not run).
    static func bare(_ failure: LinkTestFailure?) -> LinkTestResult {
        LinkTestResult(entry: .init(url: "not a url", expectation: .notMatched), failure: failure, message: "")
    }

    @Test(arguments: failures)
    func appleResultsRoundTrip(_ failure: LinkTestFailure?) throws {
        for result in [try Self.apple(failure), Self.bare(failure)] {
            #expect(try result.json == Self.reference(result), "\(String(describing: failure))")
            #expect(try result.json != .null)
        }
    }

    /// Android results from a real run (the dynamic rule that decided), each
    /// failure kind written in turn.
    @Test(arguments: failures)
    func androidResultsRoundTrip(_ failure: LinkTestFailure?) throws {
        let report = try AndroidLinkTestTests().run([
            ("https://example.com/account/1", .matched), ("https://example.com/shop/1?ref=a", .none),
        ])
        try #require(report.results.allSatisfy { $0.dynamicRule != nil })
        for var result in report.results {
            result.failure = failure
            #expect(try result.json == Self.reference(result), "\(String(describing: failure))")
        }
    }
}
