import Testing

@testable import AASAKit

/// Android 15+ dynamic App Links matching (docs/ANDROID.md, "How rules match").
@Suite("assetlinks.json dynamic rules: matching")
struct AssetLinksMatcherTests {
    typealias Sample = AssetLinksSample
    static let package = "com.example.app"

    static let rules = #"""
        [
          {"/": "/it/ordina/pagamento/*", "exclude": true},
          {"/": "/it/ordina/*"},
          {"/": "/invita/*", "?": {"ref": "?*"}},
          {"#": "app"},
          {"/": "/promo/*", "#": "web", "exclude": true},
          {"/": "/promo/*"},
          {"/": "/café"},
          {"/": "/e/??"},
          {"/": "/"}
        ]
        """#

    static func matcher(_ json: String = Sample.rules(rules), host: String? = nil) throws -> DynamicLinkMatcher {
        DynamicLinkMatcher(file: AssetLinksFile(json: try JSONParser().parse(Array(json.utf8)).value), host: host)
    }

    static func evaluate(
        _ url: String,
        in json: String = Sample.rules(rules),
        package: String = package,
        host: String? = nil
    ) throws -> DynamicLinkResult {
        try matcher(json, host: host).evaluate(try AASAURL(url), package: package)
    }

    /// URL, decision, index of the deciding rule.
    static let cases: [(String, DynamicLinkDecision, Int?)] = [
        ("https://h/it/ordina/pagamento/3ds", .blocked, 0),
        ("https://h/it/ordina/123", .matched, 1),
        ("https://h/IT/ordina/123", .none, nil),
        ("https://h/it/ordina", .none, nil),
        ("https://h/invita/x?ref=abc&utm=1", .matched, 2),
        ("https://h/invita/x?utm=1&ref=abc", .matched, 2),
        ("https://h/invita/x?utm=1", .none, nil),
        ("https://h/invita/x", .none, nil),
        ("https://h/invita/x?ref=", .none, nil),
        ("https://h/invita/x?ref", .none, nil),
        ("https://h/invita/x?ref=&ref=b", .matched, 2),
        ("https://h/invita/x?REF=abc", .none, nil),
        ("https://h/invita/x?r%65f=abc", .matched, 2),
        ("https://h/invita/x?ref=a%26b", .matched, 2),
        ("https://h/anything#app", .matched, 3),
        ("https://h/anything#App", .none, nil),
        ("https://h/anything#", .none, nil),
        ("https://h/anything", .none, nil),
        ("https://h/promo/x#web", .blocked, 4),
        ("https://h/promo/x", .matched, 5),
        ("https://h/promo/x#other", .matched, 5),
        ("https://h/caf%C3%A9", .matched, 6),
        ("https://h/café", .matched, 6),
        ("https://h/CAFÉ", .none, nil),
        ("https://h/e/ab", .matched, 7),
        ("https://h/e/😀", .matched, 7),
        ("https://h/e/a", .none, nil),
        ("https://h", .matched, 8),
        ("https://h/", .matched, 8),
        ("https://h/it/ordina/../ordina/1", .matched, 1),
    ]

    @Test(arguments: cases)
    func decisions(_ url: String, _ decision: DynamicLinkDecision, _ ruleIndex: Int?) throws {
        let result = try Self.evaluate(url)
        #expect(result.decision == decision, "\(result.reason)")
        #expect(result.rule?.index == ruleIndex)
    }

    @Test func explainsLikeTheAppleMatcher() throws {
        #expect(try Self.evaluate("https://h/it/ordina/1").reason == #"Pattern "/it/ordina/*" matched."#)
        #expect(
            try Self.evaluate("https://h/it/ordina/pagamento/1").reason
                == #"Pattern {"/":"/it/ordina/pagamento/*","exclude":true} blocked match."#
        )
        #expect(try Self.evaluate("https://h/nothing").reason == "no rule matched")
        let result = try Self.evaluate("https://h/invita/x?ref=1")
        #expect(
            result.json
                == .object(
                    JSONObject([
                        ("decision", "matched"),
                        ("reason", .string(#"Pattern {"/":"/invita/*","?":{"ref":"?*"}} matched."#)),
                        (
                            "rule",
                            .object(
                                JSONObject([
                                    ("index", 2),
                                    ("path", .string(AssetLinksDynamicRuleTests.list + "[2]")),
                                    (
                                        "rule",
                                        try JSONParser().parse(Array(#"{"/":"/invita/*","?":{"ref":"?*"}}"#.utf8)).value
                                    ),
                                ])
                            )
                        ),
                    ])
                )
        )
    }

    @Test func aStarBeforeMorePatternTextAddsANote() throws {
        let result = try Self.evaluate("https://h/a/b/privacy", in: Sample.rules(#"[{"/": "/*/privacy"}]"#))
        #expect(result.decision == .matched)
        #expect(result.notes.count == 1)
        #expect(result.notes.first?.contains("does not backtrack") == true)
        #expect(try Self.evaluate("https://h/a/b", in: Sample.rules(#"[{"/": "/a/*"}]"#)).notes.isEmpty)
    }

    @Test func onlyTheServedHostIsNarrowed() throws {
        #expect(try Self.evaluate("https://H.example./it/ordina/1", host: "h.example").decision == .matched)
        let other = try Self.evaluate("https://other.example/it/ordina/1", host: "h.example")
        #expect(other.decision == .none)
        #expect(other.reason == "URL host other.example is not h.example")
    }

    @Test func aPackageTheFileDoesNotVerify() throws {
        let result = try Self.evaluate("https://h/it/ordina/1", package: "com.example.ap")
        #expect(result.decision == .none)
        #expect(result.reason.contains(#"did you mean "com.example.app"?"#))
        let credentialsOnly = Sample.file(relation: #"["delegate_permission/common.get_login_creds"]"#)
        #expect(try Self.evaluate("https://h/a", in: credentialsOnly).decision == .none)
        #expect(try Self.matcher(credentialsOnly).packages.isEmpty)
    }

    @Test func theIntentFiltersDecideWithoutUsableRules() throws {
        let plain = try Self.evaluate("https://h/anything", in: Sample.file())
        #expect(plain.decision == .intentFilters)
        #expect(plain.reason.contains("no dynamic rules"))
        let malformed = try Self.evaluate(
            "https://h/it/ordina/pagamento/1",
            in: Sample.rules(#"[{"/": "/a", "caseSensitive": false}]"#)
        )
        #expect(malformed.decision == .intentFilters)
        #expect(malformed.reason.contains("malformed"))
        let empty = try Self.evaluate("https://h/a", in: Sample.rules("[]"))
        #expect(empty.decision == .intentFilters)
    }

    @Test func aFileGoogleRejectsVerifiesNothing() throws {
        let json = #"""
            [\#(Sample.rules(#"[{"/": "*"}]"#).dropFirst().dropLast()),
             {"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "web", "site": "https://h/"}}]
            """#
        let result = try Self.evaluate("https://h/a", in: json)
        #expect(result.decision == .none)
        #expect(result.reason.hasPrefix("Google rejects this file"))
        #expect(result.reason.contains("[1].target.site"))
    }

    @Test func anUnconstrainedRuleMatchesEveryURL() throws {
        #expect(try Self.evaluate("https://h/x?y#z", in: Sample.rules(#"[{"comments": "all"}]"#)).decision == .matched)
        #expect(try Self.evaluate("https://h/x", in: Sample.rules(#"[{"exclude": true}]"#)).decision == .blocked)
    }

    @Test func rulesOfSeveralStatementsChainInFileOrder() throws {
        let json = #"""
            [\#(Sample.rules(#"[{"/": "/a/*", "exclude": true}]"#).dropFirst().dropLast()),
             \#(Sample.rules(#"[{"/": "*"}]"#).dropFirst().dropLast())]
            """#
        #expect(try Self.evaluate("https://h/a/1", in: json).decision == .blocked)
        let later = try Self.evaluate("https://h/b", in: json)
        #expect(later.decision == .matched)
        #expect(later.rule?.path.description.hasPrefix("[1]") == true)
    }

    @Test(arguments: [
        ("*", "", true), ("*", "abc", true), ("?", "", false), ("?", "a", true), ("?*", "", false), ("?*", "a", true),
        ("a*b", "ab", true), ("a*b", "axxb", true), ("a*b", "axxbc", false), ("*.pdf", "a.b.pdf", true),
        ("a?c", "abc", true), ("a?c", "ac", false), ("A", "a", false), ("x*", "x/y/z", true),
    ])
    func globs(_ pattern: String, _ text: String, _ matches: Bool) {
        #expect(AndroidGlob(pattern).matches(text) == matches)
    }

    /// A coverage proof costs one table cell per pair of tokens: two huge
    /// patterns are not compared at all (so even one covering itself is not
    /// reported), keeping the origin's reload bounded.
    @Test func coverageProofsAreBounded() {
        #expect(AndroidGlob("/a/*").covers(AndroidGlob("/a/*b")))
        #expect(!AndroidGlob("/a/*b").covers(AndroidGlob("/a/*")))
        let huge = "/" + String(repeating: "a*", count: 1_100)
        #expect(!AndroidGlob(huge).covers(AndroidGlob(huge)))
    }

    @Test func decodingKeepsMalformedEscapesAndReplacesBadUTF8() {
        #expect(DynamicLinkInput.decode("/a%zz%4") == "/a%zz%4")
        #expect(DynamicLinkInput.decode("/%FF") == "/\u{FFFD}")
        #expect(DynamicLinkInput.decode("/a+b%20c") == "/a+b c")
    }
}
