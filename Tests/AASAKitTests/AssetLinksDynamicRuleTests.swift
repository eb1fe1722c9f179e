import Testing

@testable import AASAKit

/// Validation and lints of Android 15+ dynamic App Link rules
/// (docs/ANDROID.md, "Dynamic App Links").
@Suite("assetlinks.json dynamic rules: validation and lints")
struct AssetLinksDynamicRuleTests {
    typealias Sample = AssetLinksSample
    static let list =
        "[0].relation_extensions[\"delegate_permission/common.handle_all_urls\"].dynamic_app_link_components"

    static let cases: [(String, [String])] = [
        (
            ##"[{"/": "/products/*"}, {"/": "/shoes", "?": {"in_app": "true"}}, {"#": "app"}, {"/": "*", "exclude": true}]"##,
            []
        ),
        (#"[{"/": "/a/*", "comments": "why"}]"#, []),
        (#"[{"?": {}}]"#, ["\(list)[0] assetlinks.dynamic-empty-rule warning"]),
        // Malformed: Android ignores the set and falls back to the intent filters.
        (#"[{"?": "a=1"}]"#, ["\(list)[0][\"?\"] assetlinks.dynamic-rules error"]),
        (#"[{"?": {"a": 1}}]"#, ["\(list)[0][\"?\"].a assetlinks.dynamic-rules error"]),
        (#"[{"/": 3}]"#, ["\(list)[0][\"/\"] assetlinks.dynamic-rules error"]),
        (##"[{"#": null}]"##, ["\(list)[0][\"#\"] assetlinks.dynamic-rules error"]),
        (#"[{"/": "/a", "exclude": "true"}]"#, ["\(list)[0].exclude assetlinks.dynamic-rules error"]),
        (#"[{"/": "/a", "caseSensitive": false}]"#, ["\(list)[0].caseSensitive assetlinks.dynamic-rules error"]),
        (#"[{"/": "/a", "percentEncoded": false}]"#, ["\(list)[0].percentEncoded assetlinks.dynamic-rules error"]),
        (#"[{"/": "/a", "comment": "x"}]"#, ["\(list)[0].comment assetlinks.dynamic-rules error"]),
        (#"[{"/": "/a", "exlude": true}]"#, ["\(list)[0].exlude assetlinks.dynamic-rules error"]),
        (#"["/a"]"#, ["\(list)[0] assetlinks.dynamic-rules error"]),
        (#"{"/": "/a"}"#, ["\(list) assetlinks.dynamic-rules error"]),
        // Lints
        ("[]", ["\(list) assetlinks.dynamic-empty warning"]),
        ("[{}]", ["\(list)[0] assetlinks.dynamic-empty-rule warning"]),
        (#"[{"exclude": false}]"#, ["\(list)[0] assetlinks.dynamic-empty-rule warning"]),
        (#"[{"/": "products/*"}]"#, ["\(list)[0][\"/\"] assetlinks.dynamic-path warning"]),
        (#"[{"/": ""}]"#, ["\(list)[0][\"/\"] assetlinks.dynamic-path warning"]),
        (#"[{"/": "*.pdf"}]"#, ["\(list)[0][\"/\"] assetlinks.dynamic-wildcard info"]),
        (#"[{"/": "/$(lang)/menu"}]"#, ["\(list)[0][\"/\"] assetlinks.dynamic-variable warning"]),
        (#"[{"/": "/caf%C3%A9"}]"#, ["\(list)[0][\"/\"] assetlinks.dynamic-encoded-pattern warning"]),
        (#"[{"/": "/100%"}]"#, []),
        (#"[{"/": "/*/privacy/*"}]"#, ["\(list)[0][\"/\"] assetlinks.dynamic-wildcard info"]),
        (#"[{"/": "/a/?*"}]"#, []),
        (#"[{"?": {"": "*"}}]"#, ["\(list)[0][\"?\"][\"\"] assetlinks.dynamic-query-name warning"]),
        (#"[{"?": {"a=b": "*"}}]"#, ["\(list)[0][\"?\"][\"a=b\"] assetlinks.dynamic-query-name warning"]),
        (##"[{"#": "*x*"}]"##, ["\(list)[0][\"#\"] assetlinks.dynamic-wildcard info"]),
        // Rules that can never decide
        (#"[{"/": "*"}, {"/": "/x"}]"#, ["\(list)[1] assetlinks.dynamic-unreachable-rule warning"]),
        (
            #"[{"/": "/shop/*"}, {"/": "/shop/cart/*", "exclude": true}]"#,
            ["\(list)[1] assetlinks.dynamic-unreachable-exclude warning"]
        ),
        (#"[{"/": "/shop/cart/*", "exclude": true}, {"/": "/shop/*"}]"#, []),
        (##"[{"/": "/a/*", "#": "x"}, {"/": "/a/b"}]"##, []),
        (##"[{"#": "*"}, {"#": "x"}]"##, ["\(list)[1] assetlinks.dynamic-unreachable-rule warning"]),
        (
            #"[{"?": {"a": "*"}}, {"?": {"a": "1", "b": "2"}}]"#,
            ["\(list)[1] assetlinks.dynamic-unreachable-rule warning"]
        ),
        (#"[{"?": {"a": "1"}}, {"?": {"a": "*"}}]"#, []),
        (#"[{"?": {"a": "*"}}, {"/": "/x"}]"#, []),
        (#"[{"/": "/a/?"}, {"/": "/a/b"}]"#, ["\(list)[1] assetlinks.dynamic-unreachable-rule warning"]),
        (#"[{"/": "/A/*"}, {"/": "/a/b"}]"#, []),
    ]

    @Test(arguments: cases)
    func table(_ components: String, _ expected: [String]) {
        #expect(Sample.findings(Sample.rules(components)) == expected)
    }

    @Test func messagesSayWhatAndroidDoes() throws {
        let flag = try #require(
            Sample.diagnostics(
                Sample.rules(#"[{"/": "/a", "caseSensitive": false}]"#),
                at: "\(Self.list)[0].caseSensitive"
            )
            .first
        )
        #expect(flag.message.contains("no such flag"))
        #expect(flag.message.contains("falls back to the app's intent filters"))
        let comment = try #require(
            Sample.diagnostics(Sample.rules(#"[{"/": "/a", "comment": "x"}]"#), at: "\(Self.list)[0].comment").first
        )
        #expect(comment.message.contains(#"did you mean "comments"?"#))
        let exclude = try #require(
            Sample.diagnostics(Sample.rules(#"[{"/": "/a", "exlude": true}]"#), at: "\(Self.list)[0].exlude").first
        )
        #expect(exclude.message.contains(#"did you mean "exclude"?"#))
    }

    static let handleKey = #""delegate_permission/common.handle_all_urls""#

    @Test func extensionsAndroidDoesNotRead() {
        let typoKey = #"""
            [{"relation":\#(Sample.appLinks),"target":\#(Sample.app()),
              "relation_extensions":{"delegate_permission/common.handle_all_url":{"dynamic_app_link_components":[]}}}]
            """#
        #expect(
            Sample.findings(typoKey) == [
                "[0].relation_extensions[\"delegate_permission/common.handle_all_url\"] assetlinks.dynamic-ignored warning"
            ]
        )
        let typoList = #"""
            [{"relation":\#(Sample.appLinks),"target":\#(Sample.app()),
              "relation_extensions":{\#(Self.handleKey):{"dynamic_app_link_component":[]}}}]
            """#
        let found = Sample.diagnostics(
            typoList,
            at: "[0].relation_extensions[\(Self.handleKey)].dynamic_app_link_component"
        )
        #expect(found.map(\.code) == ["assetlinks.dynamic-rules"])
        #expect(found.first?.message.contains(#"did you mean "dynamic_app_link_components"?"#) == true)
        let onWeb = #"""
            [{"relation":["delegate_permission/common.get_login_creds"],"target":{"namespace":"web","site":"https://a.example"},
              "relation_extensions":{\#(Self.handleKey):{"dynamic_app_link_components":[{"/":"/a"}]}}}]
            """#
        #expect(
            Sample.findings(onWeb) == [
                "[0].relation_extensions[\(Self.handleKey)].dynamic_app_link_components assetlinks.dynamic-ignored warning",
                "(root) assetlinks.no-app-links info",
            ]
        )
    }

    @Test func aPackageSplitOverStatementsWithRules() {
        let json = #"""
            [\#(Sample.rules(#"[{"/":"/a/*"}]"#).dropFirst().dropLast()),
             {"relation":\#(Sample.appLinks),"target":\#(Sample.app())}]
            """#
        #expect(Sample.findings(json) == ["[1] assetlinks.dynamic-split warning"])
    }

    @Test func longPatternsSkipTheUnreachableCheck() {
        let long = "/" + String(repeating: "a*", count: 2_000)
        let rules = (0..<5).map { #"{"/":"\#(long)\#($0)"}"# }.joined(separator: ",")
        let found = Sample.findings(Sample.rules("[\(rules)]"))
        #expect(found.contains("\(Self.list) assetlinks.dynamic-unreachable-skipped info"))
        #expect(!found.contains { $0.contains("unreachable-rule ") })
    }

    @Test func tooManyRulesSkipsTheUnreachableCheck() {
        let count = 710
        let rules = (0..<count).map { #"{"/":"/r\#($0)"}"# }.joined(separator: ",")
        #expect(
            Sample.findings(Sample.rules("[\(rules)]")) == ["\(Self.list) assetlinks.dynamic-unreachable-skipped info"]
        )
    }
}
