import Testing

@testable import AASAKit

@Suite("Substitution variable lints")
struct VariableLintTests {
    /// A file with one entry whose components and variables are given.
    static func file(components: String, variables: String = "{}", defaults: String = "{}") -> String {
        #"""
        {"applinks":{"substitutionVariables":\#(variables),"defaults":\#(defaults),
        "details":[{"appIDs":["ABCDE12345.com.a"],"components":[\#(components)]}]}}
        """#
    }

    static let c = "applinks.details[0].components"
    static let v = "applinks.substitutionVariables"

    static let cases: [LintCase] = [
        LintCase(
            "defined, built-in and literal $",
            file(components: #"{"/":"/$(food)/$(digit)/$x/$"}"#, variables: #"{"food":["pizza"]}"#),
            code: "lint.undefined-variable",
            at: [],
            .error
        ),
        LintCase(
            "undefined in path, query, item value and fragment",
            file(components: ##"{"/":"/$(nope)","?":"a=$(x)","#":"$(Digit)"},{"?":{"k":"$(y)"}}"##),
            code: "lint.undefined-variable",
            at: [#"\#(c)[0]["/"]"#, #"\#(c)[0]["?"]"#, ##"\##(c)[0]["#"]"##, #"\#(c)[1]["?"].k"#],
            .error
        ),
        LintCase(
            "undefined in defaults",
            file(components: "{}", defaults: #"{"/":"/$(missing)/*"}"#),
            code: "lint.undefined-variable",
            at: [#"applinks.defaults["/"]"#],
            .error
        ),
        LintCase(
            "a non-array variable defines nothing",
            file(components: #"{"/":"/$(food)"}"#, variables: #"{"food":"pizza"}"#),
            code: "lint.undefined-variable",
            at: [#"\#(c)[0]["/"]"#],
            .error
        ),
        LintCase(
            "legacy paths are not expanded",
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.a"],"paths":["/$(x)"]}]}}"#,
            code: "lint.undefined-variable",
            at: [],
            .error
        ),
        LintCase(
            "unterminated",
            file(components: #"{"/":"/$(food"},{"/":"/$(food)"}"#, variables: #"{"food":["a"]}"#),
            code: "lint.unterminated-variable",
            at: [#"\#(c)[0]["/"]"#],
            .error
        ),
        LintCase(
            "variable value containing $(",
            file(components: "{}", variables: #"{"a":["x","$(b)y"],"b":["z"],"c":["$ ok"]}"#),
            code: "lint.nested-variable",
            at: ["\(v).a[1]"],
            .error
        ),
        LintCase(
            "user variables shadowing built-ins",
            file(components: "{}", variables: #"{"digit":["1"],"region":["GB"],"food":["x"]}"#),
            code: "lint.shadowed-builtin-variable",
            at: ["\(v).digit", "\(v).region"]
        ),
        LintCase(
            "variable in a query item name",
            file(components: #"{"?":{"$(k)":"1","plain":"$(digit)"}}"#),
            code: "lint.variable-in-query-name",
            at: [#"\#(c)[0]["?"]["$(k)"]"#]
        ),
    ]

    @Test(arguments: cases)
    func table(_ row: LintCase) throws {
        try row.verify()
    }

    @Test func undefinedVariableSuggestsTheNearestName() throws {
        let findings = try lint(Self.file(components: #"{"/":"/$(Digit)/$(fod)"}"#, variables: #"{"food":["x"]}"#))
        let messages = findings.filter { $0.code == "lint.undefined-variable" }.map(\.message)
        #expect(messages.count == 2)
        #expect(messages.contains { $0.contains("did you mean $(digit)?") })
        #expect(messages.contains { $0.contains("did you mean $(food)?") })
    }

    @Test(arguments: [
        ("/a/$(x)/b", [VariableReference.variable("x")]),
        ("$(a)$(b)", [.variable("a"), .variable("b")]),
        ("/$x/$/(y)", []),
        ("/$(a)/$(b", [.variable("a"), .unterminated]),
        ("$()", [.variable("")]),
    ])
    func scanning(_ pattern: String, _ expected: [VariableReference]) {
        #expect(VariableReference.scan(pattern) == expected)
    }

    @Test func literalTextDropsReferences() {
        #expect(VariableReference.literalText(of: "/$(region)/UK/$(x") == "//UK/")
    }
}

@Suite("Region code lint")
struct RegionCodeLintTests {
    static let c = "applinks.details[0].components"
    static let v = "applinks.substitutionVariables"

    static let cases: [LintCase] = [
        LintCase(
            "UK next to $(region)",
            VariableLintTests.file(components: #"{"/":"/$(region)/*"},{"/":"/UK/*","exclude":true},{"?":"c=uk"}"#),
            code: "lint.region-code-uk",
            at: [#"\#(c)[1]["/"]"#, #"\#(c)[2]["?"]"#]
        ),
        LintCase(
            "lowercase uk is Ukrainian when $(lang) is used",
            VariableLintTests.file(components: #"{"/":"/$(lang)-$(region)/*"},{"/":"/uk/*"},{"/":"/en-UK/*"}"#),
            code: "lint.region-code-uk",
            at: [#"\#(c)[2]["/"]"#]
        ),
        LintCase(
            "UK inside a word does not count",
            VariableLintTests.file(components: #"{"/":"/$(region)/*"},{"/":"/UKULELE/*"}"#),
            code: "lint.region-code-uk",
            at: []
        ),
        LintCase(
            "UK without $(region)",
            VariableLintTests.file(components: #"{"/":"/UK/*"}"#),
            code: "lint.region-code-uk",
            at: []
        ),
        LintCase(
            "user-defined region is not the built-in",
            VariableLintTests.file(
                components: #"{"/":"/$(region)/*"},{"/":"/UK/*"}"#,
                variables: #"{"region":["UK","GB"]}"#
            ),
            code: "lint.region-code-uk",
            at: []
        ),
        LintCase(
            "region-like list with UK but no GB",
            VariableLintTests.file(components: "{}", variables: #"{"markets":["US","UK","FR"]}"#),
            code: "lint.region-code-uk",
            at: ["\(v).markets[1]"]
        ),
        LintCase(
            "list named country",
            VariableLintTests.file(components: "{}", variables: #"{"countryCode":["us","uk"]}"#),
            code: "lint.region-code-uk",
            at: ["\(v).countryCode[1]"]
        ),
        LintCase(
            "list with both UK and GB",
            VariableLintTests.file(components: "{}", variables: #"{"markets":["GB","UK"]}"#),
            code: "lint.region-code-uk",
            at: []
        ),
        LintCase(
            "language list with uk",
            VariableLintTests.file(components: "{}", variables: #"{"languages":["en","uk","fr"]}"#),
            code: "lint.region-code-uk",
            at: []
        ),
    ]

    @Test(arguments: cases)
    func table(_ row: LintCase) throws {
        try row.verify()
    }

    @Test func messageNamesGB() throws {
        let findings = try lint(VariableLintTests.file(components: #"{"/":"/$(region)/*"},{"/":"/UK/*"}"#))
        let finding = try #require(findings.first { $0.code == "lint.region-code-uk" })
        #expect(finding.message.contains("United Kingdom is GB"))
    }
}
