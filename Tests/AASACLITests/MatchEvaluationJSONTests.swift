import AASAKit
import Testing

@testable import aasa

/// `MatchEvaluation.json()` reads back the bytes `aasa match -` writes: for
/// every outcome (opens, blocked, no rule, another host, http) those bytes
/// parse, and they are the object the command printed when it was built as
/// a `JSONValue` (kept here as the reference).
@Suite struct MatchEvaluationJSONTests {
    /// The object as it was built before the writer.
    static func reference(_ evaluation: MatchEvaluation) -> JSONValue {
        let entries = evaluation.outcomes.map { outcome -> JSONValue in
            var entry = JSONObject([
                ("appID", .string(outcome.appID)),
                ("decision", .string(outcome.result.decision.rawValue)),
                ("rule", outcome.result.rule?.json ?? .null),
                ("reason", .string(outcome.result.reason)),
                ("opensApp", .bool(outcome.opensApp)),
                ("why", outcome.why.map { .string($0.rawValue) } ?? .null),
            ])
            if evaluation.explained { entry["explanation"] = outcome.explanation?.json ?? .null }
            return .object(entry)
        }
        return [
            "url": .string(evaluation.url.description),
            "domain": .string(evaluation.domain),
            "results": .array(entries),
        ]
    }

    static let urls: [(url: String, domain: String, why: MatchEvaluation.Why?)] = [
        ("https://example.com/buy/42", "example.com", nil),
        ("https://example.com/buy/secret", "example.com", .blocked),
        ("https://example.com/nothing?q=\"é\"#x", "example.com", .noRuleMatched),
        ("https://other.example/buy/1", "example.com", .hostMismatch),
        ("http://example.com/buy/1", "example.com", .httpScheme),
    ]

    @Test(arguments: [true, false])
    func everyOutcomeRoundTrips(explained: Bool) throws {
        let file = AASAFile(json: try JSONParser().parse(MatchCommandTests.file).value)
        let matcher = AASAMatcher(file: file, domain: "example.com")
        for (text, domain, why) in Self.urls {
            let url = try AASAURL(text)
            let evaluation = MatchEvaluation(
                url: url,
                domain: domain,
                file: file,
                results: file.appLinksAppIDs.map { ($0, matcher.evaluate(url, appID: $0)) },
                explained: explained
            )
            #expect(evaluation.outcomes.first?.why == why, "\(text)")
            let json = try evaluation.json()
            #expect(json == Self.reference(evaluation), "\(text)")
        }
    }
}
