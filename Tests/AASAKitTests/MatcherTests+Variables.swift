import Testing

@testable import AASAKit

/// docs/SEMANTICS.md §5: substitution variables and built-ins.
@Suite struct VariableTests {
    static let variables =
        #"{"food": ["pizza", "sushi", "ice*cream", "b?r"], "lang2": ["en", "fr"], "digit": ["x"], "empty": [], "nested": ["$(food)"], "mixed": ["ok", 5], "notArray": "pizza"}"#

    struct Case: CustomTestStringConvertible, Sendable {
        var pattern: String
        var path: String
        var matches: Bool
        var testDescription: String { "\(pattern) ~ \(path) → \(matches)" }
    }

    static let cases: [Case] = [
        // Each value is one alternative spliced in; matching continues after it.
        .init(pattern: "/menu/$(food)", path: "/menu/pizza", matches: true),
        .init(pattern: "/menu/$(food)", path: "/menu/sushi/", matches: true),
        .init(pattern: "/menu/$(food)", path: "/menu/ramen", matches: false),
        .init(pattern: "/menu/$(food)/*", path: "/menu/sushi/42", matches: true),
        // Values may contain `*` and `?`.
        .init(pattern: "/menu/$(food)", path: "/menu/ice-cream", matches: true),
        .init(pattern: "/menu/$(food)", path: "/menu/icecream", matches: true),
        .init(pattern: "/menu/$(food)", path: "/menu/bar", matches: true),
        .init(pattern: "/menu/$(food)", path: "/menu/br", matches: false),
        // Backtracking over alternatives: "en" must be tried, not only the first.
        .init(pattern: "/$(lang2)/$(food)", path: "/fr/pizza", matches: true),
        .init(pattern: "/$(lang2)$(lang2)", path: "/enfr", matches: true),
        // A literal `$(food)` in the URL does not match.
        .init(pattern: "/menu/$(food)", path: "/menu/$(food)", matches: false),
        // Names are case-sensitive.
        .init(pattern: "/menu/$(Food)", path: "/menu/pizza", matches: false),
        // Built-ins: exactly one character each.
        .init(pattern: "/$(alpha)", path: "/Q", matches: true),
        .init(pattern: "/$(alpha)", path: "/1", matches: false),
        .init(pattern: "/$(upper)", path: "/Q", matches: true),
        .init(pattern: "/$(upper)", path: "/q", matches: false),
        .init(pattern: "/$(lower)", path: "/q", matches: true),
        .init(pattern: "/$(lower)", path: "/Q", matches: false),
        .init(pattern: "/$(alnum)", path: "/7", matches: true),
        .init(pattern: "/$(alnum)", path: "/-", matches: false),
        .init(pattern: "/$(xdigit)", path: "/f", matches: true),
        .init(pattern: "/$(xdigit)", path: "/g", matches: false),
        .init(pattern: "/$(alpha)", path: "/é", matches: false),
        // There is no "one or more digits".
        .init(pattern: "/id/$(xdigit)", path: "/id/12", matches: false),
        // A user `digit` shadows the built-in.
        .init(pattern: "/$(digit)", path: "/x", matches: true),
        .init(pattern: "/$(digit)", path: "/5", matches: false),
        // $(region): ISO 3166-1 alpha-2 from Foundation: GB yes, UK no.
        .init(pattern: "/$(region)/*", path: "/GB/shop", matches: true),
        .init(pattern: "/$(region)/*", path: "/UK/shop", matches: false),
        .init(pattern: "/$(region)/*", path: "/DE", matches: true),
        .init(pattern: "/$(region)", path: "/G", matches: false),
        // $(lang): mixed 2- and 3-letter codes.
        .init(pattern: "/$(lang)/*", path: "/en/x", matches: true),
        .init(pattern: "/$(lang)/*", path: "/haw/x", matches: true),
        .init(pattern: "/$(lang)/*", path: "/EN/x", matches: false),
        .init(pattern: "/$(lang)-$(region)", path: "/fr-CA", matches: true),
        // Undefined or unterminated: the rule never matches.
        .init(pattern: "/$(nope)", path: "/anything", matches: false),
        .init(pattern: "/a/$(food", path: "/a/$(food", matches: false),
        .init(pattern: "*$(", path: "/x", matches: false),
        // Our picks: an empty list matches nothing; a `$(` inside a value
        // never matches; non-strings are skipped; a non-array is undefined.
        .init(pattern: "/$(empty)", path: "/", matches: false),
        .init(pattern: "/$(nested)", path: "/pizza", matches: false),
        .init(pattern: "/$(nested)", path: "/$(food)", matches: false),
        .init(pattern: "/$(mixed)", path: "/ok", matches: true),
        .init(pattern: "/$(notArray)", path: "/pizza", matches: false),
    ]

    @Test(arguments: cases)
    func variable(_ c: Case) throws {
        let component = #"{"/": \#(JSONValue.string(c.pattern).serialized())}"#
        let decision = try MatcherFixture.decide(component, "https://h" + c.path, variables: Self.variables)
        #expect((decision == .matched) == c.matches)
    }

    @Test func matchedRuleNamesItsVariables() throws {
        let file = try MatcherFixture.file(
            components: #"[{"/": "/$(lang2)/$(food)", "?": {"d": "$(digit)"}}]"#,
            variables: Self.variables
        )
        let result = try MatcherFixture.evaluate(file, "https://h/en/pizza?d=x")
        #expect(result.rule?.variables == ["lang2", "food", "digit"])
    }

    @Test func brokenRulesAreExplained() throws {
        let file = try MatcherFixture.file(components: #"[{"/": "/$(nope)"}, {"/": "/a/$(food"}]"#)
        let result = try MatcherFixture.evaluate(file, "https://h/x")
        #expect(result.decision == .none)
        #expect(
            result.notes == [
                "rule applinks.details[0].components[0] never matches: undefined substitution variable $(nope)",
                #"rule applinks.details[0].components[1] never matches: "$(" without ")""#,
            ]
        )
    }

    @Test func regionAndLangComeFromTheGivenSnapshot() throws {
        let codes = ISOCodes(regions: ["ZZ"], languages: ["qqq"], provenance: "test")
        let file = try MatcherFixture.file(components: #"[{"/": "/$(region)/$(lang)"}]"#)
        let matcher = AASAMatcher(file: file, domain: nil, codes: codes)
        #expect(matcher.evaluate(try AASAURL("https://h/ZZ/qqq"), appID: MatcherFixture.appID).decision == .matched)
        #expect(matcher.evaluate(try AASAURL("https://h/GB/en"), appID: MatcherFixture.appID).decision == .none)
    }

    @Test func snapshotIsPinnedAndPlausible() {
        let codes = ISOCodes.snapshot
        #expect(codes.provenance.contains("20"))
        #expect(codes.regions.contains("GB"))
        #expect(!codes.regions.contains("UK"))
        #expect(codes.regions.allSatisfy { $0.count == 2 })
        #expect(codes.languages.contains("en"))
        #expect(codes.languages.contains { $0.count == 3 })
        #expect(codes.languages.allSatisfy { $0.count == 2 || $0.count == 3 })
    }

    /// Depth past 64 ("pattern too complex") never matches; 64 still does.
    @Test(arguments: [(63, true), (64, true), (65, false)])
    func depthLimit(_ stars: Int, _ matches: Bool) throws {
        let pattern = "/" + String(repeating: "a*", count: stars) + "b"
        let path = "/" + String(repeating: "a", count: stars) + "b"
        #expect(try MatcherFixture.pathMatches(pattern, path) == matches)
    }

    @Test func tooComplexIsExplained() throws {
        let pattern = "/" + String(repeating: "$(digit)*", count: 40)
        let file = try MatcherFixture.file(components: #"[{"/": "\#(pattern)"}]"#)
        let result = try MatcherFixture.evaluate(file, "https://h/1")
        #expect(result.reason.contains("pattern too complex"))
    }
}
