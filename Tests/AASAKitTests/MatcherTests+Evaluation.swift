import Testing

@testable import AASAKit

/// docs/SEMANTICS.md §6: host check, app lookup, first match wins, legacy `paths`.
@Suite struct EvaluationTests {
    static let app = MatcherFixture.appID

    static let file: String = #"""
        {"applinks": {"details": [
          {"appIDs": ["\#(app)"], "components": [
            {"/": "/buy/special", "exclude": true, "comment": "first match wins"},
            {"/": "/buy/*"},
            {"/": "/buy/special/again"},
            {"/": "/admin/*", "exclude": true}
          ]},
          {"appIDs": ["\#(app)", "OTHER12345.com.example.two"], "components": [{"/": "*"}]}
        ]}}
        """#

    @Test(arguments: [
        ("https://example.com/buy/42", MatchDecision.matched, 1),
        ("https://example.com/buy/special", .blocked, 0),
        ("https://example.com/buy/special/again", .matched, 1),
        ("https://example.com/admin/users", .blocked, 3),
        ("https://EXAMPLE.com:8443/buy/1", .matched, 1),  // host case and port ignored
        ("http://example.com/buy/1", .matched, 1),
    ])
    func firstMatchWins(_ url: String, _ decision: MatchDecision, _ ruleIndex: Int) throws {
        let result = try MatcherFixture.evaluate(MatcherFixture.parse(Self.file), url, domain: "Example.com")
        #expect(result.decision == decision)
        #expect(result.rule?.ruleIndex == ruleIndex)
        #expect(result.rule?.detailIndex == 0)
    }

    @Test func noRuleMatched() throws {
        let result = try MatcherFixture.evaluate(MatcherFixture.parse(Self.file), "https://example.com/help")
        #expect(result.decision == .none)
        #expect(result.rule == nil)
        #expect(result.reason == "no rule matched")
    }

    @Test func laterEntryForSameAppIsIgnored() throws {
        // The second entry's "*" would match, but the first entry decides for this app.
        let file = try MatcherFixture.parse(Self.file)
        #expect(try MatcherFixture.evaluate(file, "https://example.com/help").decision == .none)
        let other = try MatcherFixture.evaluate(file, "https://example.com/help", app: "OTHER12345.com.example.two")
        #expect(other.decision == .matched)
        #expect(other.rule?.detailIndex == 1)
    }

    @Test func appNotListed() throws {
        let result = try MatcherFixture.evaluate(
            MatcherFixture.parse(Self.file),
            "https://example.com/buy/1",
            app: "NOPE.app"
        )
        #expect(result.decision == .none)
        #expect(result.reason == "app ID not listed in applinks.details")
    }

    @Test(arguments: ["https://other.com/buy/1", "https://www.example.com/buy/1", "https://example.com.evil/buy/1"])
    func wrongHost(_ url: String) throws {
        let result = try MatcherFixture.evaluate(MatcherFixture.parse(Self.file), url, domain: "example.com")
        #expect(result.decision == .none)
        #expect(result.reason.hasPrefix("URL host "))
    }

    @Test(arguments: [
        ("https://www.example.com/buy/1", true), ("https://a.b.example.com/buy/1", true),
        ("https://example.com/buy/1", false), ("https://badexample.com/buy/1", false),
    ])
    func wildcardDomainAcceptsSubdomains(_ url: String, _ accepted: Bool) throws {
        let result = try MatcherFixture.evaluate(MatcherFixture.parse(Self.file), url, domain: "*.Example.com")
        #expect((result.decision == .matched) == accepted)
    }

    @Test func nilDomainAcceptsAnyHost() throws {
        #expect(
            try MatcherFixture.evaluate(MatcherFixture.parse(Self.file), "https://anything.test/buy/1").decision
                == .matched
        )
    }

    @Test func reasonsReadLikeSwcutil() throws {
        let file = try MatcherFixture.parse(Self.file)
        #expect(try MatcherFixture.evaluate(file, "https://h/buy/1").reason == #"Pattern "/buy/*" matched."#)
        #expect(
            try MatcherFixture.evaluate(file, "https://h/admin/x").reason
                == #"Pattern {"/":"/admin/*","exclude":true} blocked match."#
        )
    }

    @Test func matchedRuleJSON() throws {
        let result = try MatcherFixture.evaluate(MatcherFixture.parse(Self.file), "https://h/buy/1")
        let json = try #require(result.rule?.json)
        #expect(json["index"] == 1)
        #expect(json["detail"] == 0)
        #expect(json["path"] == "applinks.details[0].components[1]")
        #expect(json["rule"] == ["/": "/buy/*"])
        #expect(json["effective"] == ["/": "/buy/*"])
        #expect(json["viaDefaults"] == false)
        #expect(result.json["decision"] == "matched")
    }

    static let legacy = #"""
        {"applinks": {"apps": [], "details": [{"appID": "\#(app)", "paths": ["NOT /buy/special", "not /Old/*", "/buy/*", "/Help/*", 7]}]}}
        """#

    @Test(arguments: [
        ("https://h/buy/special", MatchDecision.blocked, 0),
        ("https://h/buy/42", .matched, 2),
        ("https://h/Old/x", .blocked, 1),
        ("https://h/old/x", .matched, 4),  // NOT forces caseSensitive; falls to the catch-all entry
        ("https://h/Help/x", .matched, 3),
        ("https://h/help/x", .matched, 4),  // the non-string entry matches everything
        ("https://h/buy/1?q=1#f", .matched, 2),  // only the path is compared
    ])
    func legacyPaths(_ url: String, _ decision: MatchDecision, _ index: Int) throws {
        let result = try MatcherFixture.evaluate(MatcherFixture.parse(Self.legacy), url)
        #expect(result.decision == decision)
        #expect(result.rule?.ruleIndex == index)
    }

    @Test func legacyNotForcesCaseSensitiveOverDefaults() throws {
        let file = try MatcherFixture.parse(
            #"{"applinks": {"defaults": {"caseSensitive": false}, "details": [{"appID": "\#(Self.app)", "paths": ["NOT /A", "*"]}]}}"#
        )
        #expect(try MatcherFixture.evaluate(file, "https://h/a").decision == .matched)
        #expect(try MatcherFixture.evaluate(file, "https://h/A").decision == .blocked)
        #expect(try MatcherFixture.evaluate(file, "https://h/A").reason == #"Pattern "NOT /A" blocked match."#)
    }

    @Test func legacyPathQuestionMarkIsAWildcard() throws {
        let file = try MatcherFixture.parse(
            #"{"applinks": {"details": [{"appID": "\#(Self.app)", "paths": ["/a?b"]}]}}"#
        )
        #expect(try MatcherFixture.evaluate(file, "https://h/axb").decision == .matched)
        #expect(try MatcherFixture.evaluate(file, "https://h/a?b").decision == .none)
    }
}

/// docs/SEMANTICS.md §2: keys, absent keys, wrong types.
@Suite struct ComponentKeyTests {
    @Test(arguments: [
        // Every specified key must match; absent keys match anything.
        (#"{}"#, "https://h/any?x=1#y", MatchDecision.matched),
        (##"{"#": "promo"}"##, "https://h/deep/path?q#promo", .matched),
        (##"{"/": "/a", "?": "x=1", "#": "f"}"##, "https://h/a?x=1#f", .matched),
        (##"{"/": "/a", "?": "x=1", "#": "f"}"##, "https://h/a?x=1#g", .none),
        (##"{"/": "/a", "?": "x=1", "#": "f"}"##, "https://h/a?x=2#f", .none),
        (#"{"/": "/a", "comment": "ignored"}"#, "https://h/a", .matched),
        (#"{"/": "/a", "exclude": true}"#, "https://h/a", .blocked),
        // Wrong types behave as absent.
        (#"{"/": 5}"#, "https://h/whatever", .matched),
        (#"{"/": null, "exclude": true}"#, "https://h/whatever", .blocked),
        // Unknown keys are ignored (typos change behaviour silently).
        (#"{"/": "/A", "casesensitive": false}"#, "https://h/a", .none),
        (#"{"/": "/a", "Exclude": true}"#, "https://h/a", .matched),
        (#"{"path": "/a"}"#, "https://h/b", .matched),
        // A components entry that is not an object matches everything.
        (#""/only""#, "https://h/other", .matched),
        (#"42"#, "https://h/other", .matched),
    ])
    func keys(_ component: String, _ url: String, _ decision: MatchDecision) throws {
        #expect(try MatcherFixture.decide(component, url) == decision)
    }

    /// Flags: booleans, numbers, "true"/"false"; anything else turns the flag off.
    @Test(arguments: [
        ("true", true), ("false", false), ("1", true), ("0", false), ("2.5", true), (#""true""#, true),
        (#""TRUE""#, true), (#""false""#, false), (#""yes""#, false), ("null", false), ("[]", false), ("{}", false),
    ])
    func flagCoercion(_ value: String, _ expected: Bool) throws {
        let caseSensitive =
            try MatcherFixture.decide(#"{"/": "/A", "caseSensitive": \#(value)}"#, "https://h/a") == .none
        #expect(caseSensitive == expected)
        let percentEncoded =
            try MatcherFixture.decide(#"{"/": "/a b", "percentEncoded": \#(value)}"#, "https://h/a%20b") == .none
        #expect(percentEncoded == expected)
    }

    /// An app ID is looked up among a few by comparison and among many by
    /// hash: either way the first detail listing it decides, and an
    /// unlisted one matches nothing.
    /// The file lists `count` + 1 distinct app IDs (`LAST` is in the second
    /// detail only): 7 gives the largest list compared one by one (8), 8 the
    /// smallest hashed (9).
    @Test(arguments: [2, 7, 8, 40])
    func appIDFoundInFirstDetailListingIt(count: Int) throws {
        let others = (0..<count - 1).map { "TEAM\($0).com.example.app" }
        let first = (others + [MatcherFixture.appID]).map { "\"\($0)\"" }.joined(separator: ", ")
        let file = try MatcherFixture.parse(
            #"""
            {"applinks": {"details": [
              {"appIDs": [\#(first)], "components": [{"/": "/one"}]},
              {"appIDs": ["\#(MatcherFixture.appID)", "LAST.com.example.app"], "components": [{"/": "*"}]}
            ]}}
            """#
        )
        let listedFirst = try MatcherFixture.evaluate(file, "https://example.com/one", app: MatcherFixture.appID)
        #expect(listedFirst.rule?.detailIndex == 0)
        let listedLast = try MatcherFixture.evaluate(file, "https://example.com/one", app: "LAST.com.example.app")
        #expect(listedLast.rule?.detailIndex == 1)
        let other = try MatcherFixture.evaluate(file, "https://example.com/x", app: "TEAM0.com.example.app")
        #expect(other.decision == .none)
        let unlisted = try MatcherFixture.evaluate(file, "https://example.com/one", app: "NOPE.com.example.app")
        #expect(unlisted.reason == "app ID not listed in applinks.details")
    }
}
