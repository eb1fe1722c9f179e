import Testing

@testable import AASAKit

@Suite("Encoding and pattern shape lints")
struct EncodingLintTests {
    static let c = "applinks.details[0].components"

    static func file(components: String, itemDefaults: String = "{}", fileDefaults: String = "{}") -> String {
        #"""
        {"applinks":{"defaults":\#(fileDefaults),
        "details":[{"appIDs":["ABCDE12345.com.a"],"defaults":\#(itemDefaults),"components":[\#(components)]}]}}
        """#
    }

    static let cases: [LintCase] = [
        LintCase(
            "raw non-ASCII and spaces with percentEncoded true",
            file(components: ##"{"/":"/café"},{"#":"a b"},{"?":{"q":"ü"}},{"/":"/caf%C3%A9"}"##),
            code: "lint.unencoded-pattern",
            at: [#"\#(c)[0]["/"]"#, ##"\##(c)[1]["#"]"##, #"\#(c)[2]["?"].q"#]
        ),
        LintCase(
            "raw non-ASCII is fine when decoded",
            file(components: #"{"/":"/café","percentEncoded":false},{"/":"/é","percentEncoded":0}"#),
            code: "lint.unencoded-pattern",
            at: []
        ),
        LintCase(
            "percentEncoded false inherited from file defaults",
            file(
                components: #"{"/":"/café"},{"/":"/é","percentEncoded":true}"#,
                fileDefaults: #"{"percentEncoded":false}"#
            ),
            code: "lint.unencoded-pattern",
            at: [#"\#(c)[1]["/"]"#]
        ),
        LintCase(
            "item defaults override file defaults",
            file(
                components: #"{"/":"/café"}"#,
                itemDefaults: #"{"percentEncoded":true}"#,
                fileDefaults: #"{"percentEncoded":false}"#
            ),
            code: "lint.unencoded-pattern",
            at: [#"\#(c)[0]["/"]"#]
        ),
        LintCase(
            "legacy paths",
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.a"],"paths":["NOT /ça/*","/ok"]}]}}"#,
            code: "lint.unencoded-pattern",
            at: ["applinks.details[0].paths[0]"]
        ),
        LintCase(
            "escapes with percentEncoded false",
            file(
                components:
                    #"{"/":"/a%20b","percentEncoded":false},{"/":"/a%20b"},{"/":"/100%","percentEncoded":false}"#
            ),
            code: "lint.encoded-pattern",
            at: [#"\#(c)[0]["/"]"#]
        ),
        LintCase(
            "escapes with percentEncoded false from defaults",
            file(components: ##"{"#":"x%2Fy"}"##, itemDefaults: #"{"percentEncoded":"false"}"#),
            code: "lint.encoded-pattern",
            at: [##"\##(c)[0]["#"]"##]
        ),
        LintCase(
            "backslash",
            file(components: #"{"/":"/a\\*"},{"/":"/a/*"}"#),
            code: "lint.backslash-in-pattern",
            at: [#"\#(c)[0]["/"]"#]
        ),
    ]

    @Test(arguments: cases)
    func table(_ row: LintCase) throws {
        try row.verify()
    }

    @Test func unencodedPatternSuggestsTheEncodedSpelling() throws {
        let finding = try #require(
            try lint(Self.file(components: #"{"/":"/café/*"}"#)).first { $0.code == "lint.unencoded-pattern" }
        )
        #expect(finding.message.contains(#""/caf%C3%A9/*""#))
    }

    @Test func encodedPatternSuggestsTheDecodedSpelling() throws {
        let json = Self.file(components: #"{"/":"/a%20b","percentEncoded":false}"#)
        let finding = try #require(try lint(json).first { $0.code == "lint.encoded-pattern" })
        #expect(finding.message.contains(#"write "/a b""#))
    }

    static func nested(_ depth: Int) -> String {
        "/" + Array(repeating: "a*", count: depth).joined() + "b"
    }

    static let complexityCases: [LintCase] = [
        LintCase("ordinary pattern", file(components: #"{"/":"/a/*/b/*"}"#), code: "lint.pattern-too-complex", at: []),
        LintCase(
            "47 levels",
            file(components: #"{"/":"\#(nested(47))"}"#),
            code: "lint.pattern-too-complex",
            at: []
        ),
        LintCase(
            "48 levels",
            file(components: #"{"/":"\#(nested(48))"}"#),
            code: "lint.pattern-too-complex",
            at: [#"\#(c)[0]["/"]"#]
        ),
        LintCase(
            "65 levels",
            file(components: #"{"/":"\#(nested(65))"}"#),
            code: "lint.pattern-too-complex",
            at: [#"\#(c)[0]["/"]"#],
            .error
        ),
    ]

    @Test(arguments: complexityCases)
    func complexity(_ row: LintCase) throws {
        try row.verify()
    }

    @Test(arguments: [
        ("/a/*", 0), ("*", 0), ("/a/*/b", 1), ("/a/***/b", 1), ("*a*", 1), ("/$(x)/*", 1),
        ("/$(x)/$(y)*z*", 3), ("?*", 0), ("*?", 1),
    ])
    func depth(_ pattern: String, _ expected: Int) {
        #expect(PatternShapeLints.depth(of: pattern, expandsVariables: true) == expected)
    }
}
