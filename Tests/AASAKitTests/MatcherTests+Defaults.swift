import Testing

@testable import AASAKit

/// docs/SEMANTICS.md §4: defaults hold any key and merge file ← entry ← rule.
@Suite struct DefaultsTests {
    static let appID = MatcherFixture.appID

    @Test func specExampleDefaultPathStillApplies() throws {
        let file = try MatcherFixture.file(components: ##"[{"#": "*"}]"##, defaults: #"{"/": "/foo/*"}"#)
        #expect(try MatcherFixture.evaluate(file, "https://h/bar").decision == .none)
        let result = try MatcherFixture.evaluate(file, "https://h/foo/1")
        #expect(result.decision == .matched)
        #expect(result.rule?.viaDefaults == true)
        #expect(result.rule?.effective == ["/": "/foo/*", "#": "*"])
    }

    @Test(
        arguments: [
            // flags from file defaults
            (#"{"caseSensitive": false}"#, nil, #"{"/": "/A"}"#, "https://h/a", MatchDecision.matched),
            (#"{"percentEncoded": false}"#, nil, #"{"/": "/a b"}"#, "https://h/a%20b", .matched),
            (#"{"exclude": true}"#, nil, #"{"/": "/a"}"#, "https://h/a", .blocked),
            // the entry's defaults overlay the file's
            (#"{"caseSensitive": false}"#, #"{"caseSensitive": true}"#, #"{"/": "/A"}"#, "https://h/a", .none),
            (#"{"/": "/x"}"#, #"{"/": "/y"}"#, #"{}"#, "https://h/y", .matched),
            (#"{"/": "/x"}"#, #"{"/": "/y"}"#, #"{}"#, "https://h/x", .none),
            // the rule's own keys win
            (#"{"exclude": true}"#, nil, #"{"/": "/a", "exclude": false}"#, "https://h/a", .matched),
            (#"{"?": {"src": "app"}}"#, nil, #"{"/": "/a"}"#, "https://h/a?src=web", .none),
            (#"{"?": {"src": "app"}}"#, nil, #"{"/": "/a", "?": "*"}"#, "https://h/a?src=web", .matched),
        ] as [(String, String?, String, String, MatchDecision)]
    )
    func merge(
        _ fileDefaults: String,
        _ entryDefaults: String?,
        _ component: String,
        _ url: String,
        _ decision: MatchDecision
    ) throws {
        var entry = #"{"appIDs": ["\#(Self.appID)"], "components": [\#(component)]"#
        if let entryDefaults { entry += #", "defaults": \#(entryDefaults)"# }
        let file = try MatcherFixture.parse(#"{"applinks": {"defaults": \#(fileDefaults), "details": [\#(entry)}]}}"#)
        #expect(try MatcherFixture.evaluate(file, url).decision == decision)
    }

    @Test func legacyPathsReceiveDefaults() throws {
        let file = try MatcherFixture.parse(
            #"{"applinks": {"defaults": {"caseSensitive": false}, "details": [{"appID": "\#(Self.appID)", "paths": ["/A/*"]}]}}"#
        )
        #expect(try MatcherFixture.evaluate(file, "https://h/a/1").decision == .matched)
    }

    @Test func viaDefaultsIsFalseWithoutInheritedKeys() throws {
        let file = try MatcherFixture.file(components: #"[{"/": "/a"}]"#)
        #expect(try MatcherFixture.evaluate(file, "https://h/a").rule?.viaDefaults == false)
    }
}
