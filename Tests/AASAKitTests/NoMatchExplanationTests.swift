import AASAKit
import Testing

/// Every "no match" says why: the nearest rules and what stands in the way.
@Suite struct NoMatchExplanationTests {
    static let app = "ABCDE12345.com.example.app"

    private func explain(_ url: String, _ rules: [JSONValue], variables: JSONValue? = nil) throws -> NoMatchExplanation
    {
        var appLinks: JSONValue = ["details": [["appIDs": [.string(Self.app)], "components": .array(rules)]]]
        if let variables { appLinks = ["substitutionVariables": variables, "details": appLinks["details"] ?? .null] }
        let file = AASAFile(json: ["applinks": appLinks])
        let parsed = try AASAURL(url)
        #expect(AASAMatcher(file: file).evaluate(parsed, appID: Self.app).decision == .none)
        return try #require(NoMatchExplanation(file: file, url: parsed, appID: Self.app))
    }

    @Test func aRuleWhosePathMatchesButNotItsQueryIsNearest() throws {
        let explanation = try explain(
            "https://example.com/invite/anna?utm=x",
            [["/": "/shop/*"], ["/": "/invite/*", "?": ["ref": "?*"], "comment": "referrals"]]
        )
        let nearest = try #require(explanation.candidates.first)
        #expect(nearest.rule.path.description == "applinks.details[0].components[1]")
        #expect(nearest.matching == ["path"])
        #expect(nearest.failing == ["query"])
        #expect(
            explanation.sentence
                == #"no rule matched (2 rules tried in applinks.details[0]); nearest: applinks.details[0].components[1] {"/":"/invite/*","?":{"ref":"?*"}} (the path matches, the query does not)"#
        )
    }

    @Test func aCaseOnlyDifferenceIsNamed() throws {
        let explanation = try explain("https://example.com/Recipes/1", [["/": "/recipes/*"]])
        #expect(explanation.candidates.first?.hint?.contains("letter case") == true)
    }

    @Test func aPercentEncodingDifferenceIsNamed() throws {
        let explanation = try explain("https://example.com/caf%C3%A9", [["/": "/café"]])
        #expect(explanation.candidates.first?.hint == #"the path would match with "percentEncoded": false"#)
    }

    @Test func variablesTakePartInTheProbes() throws {
        let explanation = try explain(
            "https://example.com/menu/1#x",
            [["/": "/$(menu)/*", "#": "deal"]],
            variables: ["menu": ["menu", "carta"]]
        )
        #expect(explanation.candidates.first?.matching == ["path"])
        #expect(explanation.candidates.first?.failing == ["fragment"])
    }

    @Test func whenNoPathMatchesItSaysSo() throws {
        let explanation = try explain("https://example.com/menu/42", [["/": "/shop/*"], ["/": "/help"]])
        #expect(explanation.candidates.isEmpty)
        #expect(
            explanation.sentence
                == "no rule matched (2 rules tried in applinks.details[0]; none matches the path /menu/42)"
        )
    }

    @Test func anEntryWithoutRulesSaysSo() throws {
        let explanation = try explain("https://example.com/", [])
        #expect(explanation.sentence == "no rule matched: applinks.details[0] has no rules for this app")
    }

    @Test func onlyTheNearestFewAreShown() throws {
        let rules: [JSONValue] = (0..<6).map { ["/": "/a/*", "#": .string("f\($0)")] }
        let explanation = try explain("https://example.com/a/1#z", rules)
        #expect(explanation.candidates.count == NoMatchExplanation.maximumCandidates)
        #expect(explanation.ruleCount == 6)
    }

    @Test func anUnlistedAppHasNoExplanation() throws {
        let file = AASAFile(json: ["applinks": ["details": []]])
        #expect(NoMatchExplanation(file: file, url: try AASAURL("https://example.com/"), appID: Self.app) == nil)
    }
}
