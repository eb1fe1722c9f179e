import Testing

@testable import AASAKit

/// docs/SEMANTICS.md §6.3: rules covered by an earlier rule.
@Suite struct UnreachableRuleLintTests {
    static func lint(_ components: String, variables: String? = nil) throws -> [Diagnostic] {
        UnreachableRuleLint.lint(try MatcherFixture.file(components: components, variables: variables))
    }

    @Test func excludeAfterCatchAllIsAnError() throws {
        let findings = try Self.lint(#"[{"/": "/*"}, {"/": "/admin/*", "exclude": true}]"#)
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.severity == .error)
        #expect(finding.code == "lint.unreachable-exclude")
        #expect(finding.path.description == "applinks.details[0].components[1]")
        #expect(finding.message.contains("applinks.details[0].components[0]"))
        #expect(finding.message.contains("opens the app"))
    }

    @Test func identicalRulesWarn() throws {
        let findings = try Self.lint(#"[{"/": "/buy/*"}, {"/": "/buy/*", "comment": "again"}]"#)
        #expect(findings.map(\.code) == ["lint.unreachable-rule"])
        #expect(findings.first?.severity == .warning)
    }

    @Test(arguments: [
        // Shadowed: warning.
        (#"[{"/": "*"}, {"/": "/a"}]"#, ["lint.unreachable-rule"]),
        (#"[{}, {"/": "/a", "?": "x"}]"#, ["lint.unreachable-rule"]),
        (#"[{"/": "/a/*"}, {"/": "/a/b/*"}]"#, ["lint.unreachable-rule"]),
        (#"[{"/": "/a/*", "exclude": true}, {"/": "/a/b"}]"#, ["lint.unreachable-rule"]),
        (#"[{"/": "/a/*", "exclude": true}, {"/": "/a/b", "exclude": true}]"#, ["lint.unreachable-rule"]),
        (#"[{"/": "/?/x"}, {"/": "/$(digit)/x"}]"#, ["lint.unreachable-rule"]),
        (#"[{"/": "/$(alnum)"}, {"/": "/$(digit)"}]"#, ["lint.unreachable-rule"]),
        (#"[{"/": "/A*", "caseSensitive": false}, {"/": "/a/b"}]"#, ["lint.unreachable-rule"]),
        (#"[{"/": "/a"}, {"/": "/a", "?": {"q": "1"}}]"#, ["lint.unreachable-rule"]),
        (#"[{"?": {"q": "?*"}}, {"?": {"q": "1", "r": "2"}}]"#, ["lint.unreachable-rule"]),
        (#"[{"?": {"q": "*"}}, {"?": "anything"}]"#, ["lint.unreachable-rule"]),
        (#"[{"/": "/$(region)/*"}, {"/": "/$(region)/shop"}]"#, ["lint.unreachable-rule"]),
        (
            #"[{"/": "/a/*"}, {"/": "/a/*", "exclude": true}, {"/": "/a/b", "exclude": true}]"#,
            ["lint.unreachable-exclude", "lint.unreachable-exclude"]
        ),
        (
            ##"[{"/": "/a", "percentEncoded": false}, {"/": "/a", "percentEncoded": false, "#": "x"}]"##,
            ["lint.unreachable-rule"]
        ),
        (##"[{"/": "*", "percentEncoded": false}, {"#": "x"}]"##, ["lint.unreachable-rule"]),
        // Not provable or not covered: nothing.
        (#"[{"/": "/admin/*", "exclude": true}, {"/": "/*"}]"#, []),
        (#"[{"/": "/a/b/*"}, {"/": "/a/*"}]"#, []),
        (#"[{"/": "/a"}, {"/": "/A", "caseSensitive": false}]"#, []),
        (#"[{"/": "/1"}, {"/": "/1", "caseSensitive": false}]"#, ["lint.unreachable-rule"]),
        (#"[{"/": "/a"}, {"/": "/a", "percentEncoded": false}]"#, []),
        (#"[{"/": "/a", "?": "x"}, {"/": "/a"}]"#, []),
        (#"[{"/": "/a", "?": {"q": "1"}}, {"/": "/a", "?": "q=1"}]"#, []),
        (#"[{"/": "/?/x"}, {"/": "/*/x"}]"#, []),
        (#"[{"/": "/$(digit)"}, {"/": "/?"}]"#, []),
        (#"[{"/": "/$(nope)/*"}, {"/": "/$(nope)/*"}]"#, []),  // never matches: another lint's finding
        (#"[{"/": "/a/*"}, {"/": "/b/*", "exclude": true}]"#, []),
        // A decoding "/*" does not match undecodable paths, which a rule without `/` does.
        (#"[{"/": "/*", "percentEncoded": false}, {"percentEncoded": false}]"#, []),
        (#"[{"/": "/*"}, {"percentEncoded": false}]"#, ["lint.unreachable-rule"]),
    ])
    func coverage(_ components: String, _ codes: [String]) throws {
        #expect(try Self.lint(components).map(\.code) == codes)
    }

    @Test func userVariablesCoverOnlyTheSameVariable() throws {
        let variables = #"{"food": ["pizza", "sushi"]}"#
        #expect(try Self.lint(#"[{"/": "/$(food)/*"}, {"/": "/$(food)/1"}]"#, variables: variables).count == 1)
        #expect(try Self.lint(#"[{"/": "/$(food)"}, {"/": "/pizza"}]"#, variables: variables).isEmpty)
        #expect(
            try Self.lint(#"[{"/": "/*"}, {"/": "/$(food)", "exclude": true}]"#, variables: variables).map(\.code) == [
                "lint.unreachable-exclude"
            ]
        )
    }

    @Test func legacyPaths() throws {
        let file = try MatcherFixture.parse(
            #"{"applinks": {"details": [{"appID": "A.x", "paths": ["*", "NOT /admin/*"]}]}}"#
        )
        #expect(UnreachableRuleLint.lint(file).map(\.code) == ["lint.unreachable-exclude"])
        let fine = try MatcherFixture.parse(
            #"{"applinks": {"details": [{"appID": "A.x", "paths": ["NOT /admin/*", "*"]}]}}"#
        )
        #expect(UnreachableRuleLint.lint(fine).isEmpty)
    }

    @Test func entriesThatDecideForNoAppAreSkipped() throws {
        let file = try MatcherFixture.parse(
            #"""
            {"applinks": {"details": [{"appID": "A.x", "components": []},
              {"appID": "A.x", "components": [{"/": "*"}, {"/": "/a", "exclude": true}]}]}}
            """#
        )
        #expect(UnreachableRuleLint.lint(file).isEmpty)
    }

    @Test func noAppLinksNoFindings() throws {
        #expect(UnreachableRuleLint.lint(try MatcherFixture.parse(#"{"webcredentials": {"apps": []}}"#)).isEmpty)
    }

    /// Whatever the lint claims must hold on real URLs: the covering rule
    /// matches every sample URL the covered rule matches.
    @Test(arguments: [
        (#"{"/": "/a/*"}"#, #"{"/": "/a/b/*"}"#),
        (#"{"/": "/A*", "caseSensitive": false}"#, #"{"/": "/a/b"}"#),
        (#"{"?": {"q": "?*"}}"#, #"{"?": {"q": "1", "r": "2"}}"#),
        (#"{"/": "/$(alnum)/*"}"#, #"{"/": "/$(digit)/x"}"#),
    ])
    func coverageAgreesWithTheMatcher(_ earlier: String, _ later: String) throws {
        let file = try MatcherFixture.file(components: "[\(earlier), \(later)]")
        let rules = try #require(file.appLinks?.details.first?.rules)
        #expect(RuleCoverage(file: file).covers(rules[0], rules[1]))
        let first = try MatcherFixture.file(components: "[\(earlier)]")
        let second = try MatcherFixture.file(components: "[\(later)]")
        let samples = ["/a/b", "/a/b/c", "/A/B", "/a/b?q=1&r=2", "/7/x", "/x/y?q=", "/a/b/?q=1&r=2#f"]
        for path in samples {
            let url = "https://h" + path
            if try MatcherFixture.evaluate(second, url).decision == .matched {
                #expect(try MatcherFixture.evaluate(first, url).decision == .matched, "\(url)")
            }
        }
    }
}
