import Testing

@testable import AASAKit

/// docs/SEMANTICS.md §1 (the file, services, precedence, forms) and the
/// interpretation of rules (§2, §4, §6.4) in the model.
@Suite struct ModelTests {
    static func file(_ text: String) throws -> AASAFile {
        try MatcherFixture.parse(text)
    }

    @Test func services() throws {
        let file = try Self.file(
            #"""
            {"webcredentials": {"apps": ["A.one", 3, "A.two"]}, "appclips": {"apps": ["A.clip"]},
             "activitycontinuation": {}, "unknown": {"apps": ["x"]}}
            """#
        )
        #expect(file.appLinks == nil)
        #expect(file.appLinksAppIDs.isEmpty)
        #expect(file.webCredentials == ["A.one", "A.two"])
        #expect(file.appClips == ["A.clip"])
        #expect(file.activityContinuation == [])
    }

    @Test func absentServicesAreNil() throws {
        let file = try Self.file(#"{"applinks": {"details": []}}"#)
        #expect(file.appLinks != nil)
        #expect(file.webCredentials == nil && file.appClips == nil && file.activityContinuation == nil)
    }

    @Test(arguments: [#"[]"#, #""x""#, #"{"applinks": []}"#, #"{"applinks": "no"}"#, #"null"#])
    func nonObjectsHaveNoAppLinks(_ text: String) throws {
        #expect(try Self.file(text).appLinks == nil)
    }

    @Test(arguments: [
        (#"{"appIDs": ["A.x", "A.y"], "appID": "A.z"}"#, ["A.x", "A.y"]),  // appIDs wins
        (#"{"appIDs": [], "appID": "A.z"}"#, []),  // even empty
        (#"{"appIDs": "A.x", "appID": "A.z"}"#, ["A.z"]),  // not an array: appID
        (#"{"appID": "A.z"}"#, ["A.z"]),
        (#"{"appID": 5}"#, []),
        (#"{"appIDs": ["A.x", 5, null]}"#, ["A.x"]),
    ])
    func appIDPrecedence(_ detail: String, _ expected: [String]) throws {
        let file = try Self.file(#"{"applinks": {"details": [\#(detail)]}}"#)
        #expect(file.appLinks?.details.first?.appIDs == expected)
    }

    @Test(arguments: [
        (#""components": [{"/": "/c"}], "paths": ["/p"]"#, AppLinksDetail.RulesSource.components, 1),
        (#""components": [], "paths": ["/p"]"#, .components, 0),  // an empty array still hides paths
        (#""components": {}, "paths": ["/p", "/q"]"#, .paths, 2),  // not an array: paths
        (#""paths": ["/p"]"#, .paths, 1),
        (#""paths": "/p""#, .none, 0),
    ])
    func componentsBeatPaths(_ keys: String, _ source: AppLinksDetail.RulesSource, _ count: Int) throws {
        let file = try Self.file(#"{"applinks": {"details": [{"appID": "A.x", \#(keys)}]}}"#)
        let detail = try #require(file.appLinks?.details.first)
        #expect(detail.rulesSource == source)
        #expect(detail.rules.count == count)
    }

    @Test func firstDetailListingAnAppWins() throws {
        let file = try Self.file(
            #"""
            {"applinks": {"details": [{"appIDs": ["A.x"]}, {"appIDs": ["A.y", "A.x"]}, {"appID": "A.z"}]}}
            """#
        )
        let appLinks = try #require(file.appLinks)
        #expect(appLinks.detailIndex(for: "A.x") == 0)
        #expect(appLinks.detailIndex(for: "A.y") == 1)
        #expect(appLinks.detailIndex(for: "A.q") == nil)
        #expect(file.appLinksAppIDs == ["A.x", "A.y", "A.z"])
    }

    @Test func legacyDetailsDictionary() throws {
        let file = try Self.file(
            #"""
            {"applinks": {"apps": [], "details": {"TEAM.b": {"paths": ["/b/*"]}, "TEAM.a": {"paths": ["NOT /a"]}}}}
            """#
        )
        let appLinks = try #require(file.appLinks)
        #expect(appLinks.usesLegacyDetailsDictionary)
        #expect(appLinks.details.map(\.appIDs) == [["TEAM.b"], ["TEAM.a"]])
        #expect(appLinks.details[0].path.description == #"applinks.details["TEAM.b"]"#)
        #expect(appLinks.details[1].rules[0].path.description == #"applinks.details["TEAM.a"].paths[0]"#)
        let result = try MatcherFixture.evaluate(file, "https://h/b/1", app: "TEAM.b")
        #expect(result.decision == .matched)
    }

    @Test func appsIsIgnoredWhenDetailsExists() throws {
        let file = try Self.file(
            #"{"applinks": {"apps": ["A.ignored"], "details": [{"appID": "A.x", "paths": ["*"]}]}}"#
        )
        #expect(file.appLinksAppIDs == ["A.x"])
    }

    @Test func substitutionVariablesOnlyAtApplinksLevel() throws {
        let file = try Self.file(
            #"""
            {"applinks": {"substitutionVariables": {"a": ["1", 2, "3"], "b": "x"},
              "details": [{"appID": "A.x", "substitutionVariables": {"c": ["9"]}, "components": [{"/": "/$(c)"}]}]}}
            """#
        )
        #expect(file.appLinks?.substitutionVariables == ["a": ["1", "3"]])
        #expect(try MatcherFixture.evaluate(file, "https://h/9", app: "A.x").decision == .none)
    }

    @Test func ruleMergeRecordsInheritedKeys() throws {
        let file = try Self.file(
            #"""
            {"applinks": {"defaults": {"caseSensitive": false, "#": "f"},
              "details": [{"appID": "A.x", "defaults": {"percentEncoded": false, "#": "g"},
                "components": [{"/": "/a", "#": "h", "comment": "c"}, 7]}]}}
            """#
        )
        let rules = try #require(file.appLinks?.details.first?.rules)
        #expect(rules[0].form == .component)
        #expect(
            rules[0].effective
                == JSONObject([
                    ("caseSensitive", false), ("#", "h"), ("percentEncoded", false), ("/", "/a"), ("comment", "c"),
                ])
        )
        #expect(rules[0].inheritedKeys == ["caseSensitive", "percentEncoded"])
        #expect(rules[0].keys == ComponentKeys(path: "/a", fragment: "h", caseSensitive: false, percentEncoded: false))
        // A non-object component matches everything, defaults not applied.
        #expect(rules[1].effective.isEmpty)
        #expect(rules[1].keys == ComponentKeys())
    }

    @Test(arguments: [
        ("NOT /a", "/a", true), ("not /a", "/a", true), ("NoT /a", "/a", true), ("NOT/a", "NOT/a", false),
        ("NOTE /a", "NOTE /a", false), ("/a", "/a", false), ("NOT  /a", " /a", true),
    ])
    func legacyNot(_ written: String, _ path: String, _ exclude: Bool) throws {
        let file = try Self.file(
            #"{"applinks": {"details": [{"appID": "A.x", "paths": [\#(JSONValue.string(written).serialized())]}]}}"#
        )
        let rule = try #require(file.appLinks?.details.first?.rules.first)
        #expect(rule.form == .legacyPath)
        #expect(rule.keys.path == path)
        #expect(rule.keys.exclude == exclude)
        #expect(rule.keys.caseSensitive)
    }

    @Test func legacyPathsIgnoreQueryAndFragmentDefaults() throws {
        let file = try Self.file(
            #"""
            {"applinks": {"defaults": {"#": "only", "?": "x", "percentEncoded": false},
              "details": [{"appID": "A.x", "paths": ["/a"]}]}}
            """#
        )
        let rule = try #require(file.appLinks?.details.first?.rules.first)
        #expect(rule.keys == ComponentKeys(path: "/a", percentEncoded: false))
        #expect(rule.inheritedKeys == ["percentEncoded"])
    }

    @Test(arguments: [
        (#""x""#, QueryPattern.string("x")),
        (
            #"{"a": "1", "b": "*"}"#,
            .items([QueryItemPattern(name: "a", pattern: "1"), QueryItemPattern(name: "b", pattern: "*")])
        ),
        (#"{"a": "1", "b": true}"#, .ignoredDictionary),
        (#"{}"#, .items([])),
    ])
    func queryInterpretation(_ json: String, _ expected: QueryPattern) throws {
        #expect(QueryPattern(json: try JSONParser().parse(json).value) == expected)
    }

    @Test func nonStringQueryIsAbsent() {
        #expect(QueryPattern(json: 5) == nil)
        #expect(QueryPattern(json: ["a"]) == nil)
    }

    @Test func reassigningJSONRereads() throws {
        var file = try Self.file(#"{"applinks": {"details": [{"appID": "A.x"}]}}"#)
        file.json = try JSONParser().parse(#"{"webcredentials": {"apps": ["A.y"]}}"#).value
        #expect(file.appLinks == nil)
        #expect(file.webCredentials == ["A.y"])
    }
}
