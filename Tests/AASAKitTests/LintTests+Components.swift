import Testing

@testable import AASAKit

@Suite("Component type lints")
struct ComponentLintTests {
    /// `{"applinks":{"details":[{"appIDs":[…],"components":[<components>]}]}}`.
    static func file(components: String, defaults: String? = nil) -> String {
        let defaultsMember = defaults.map { #","defaults":\#($0)"# } ?? ""
        return
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.a"],"components":[\#(components)]\#(defaultsMember)}]}}"#
    }

    static let c = "applinks.details[0].components"

    static let cases: [LintCase] = [
        LintCase(
            "objects are fine",
            file(components: #"{"/":"/a"},{}"#),
            code: "lint.component-not-object",
            at: [],
            .error
        ),
        LintCase(
            "string and null components",
            file(components: #"{"/":"/a"},"/b",null"#),
            code: "lint.component-not-object",
            at: ["\(c)[1]", "\(c)[2]"],
            .error
        ),
        LintCase(
            "legacy non-string path",
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.a"],"paths":["/a",7]}]}}"#,
            code: "lint.legacy-path-not-string",
            at: ["applinks.details[0].paths[1]"],
            .error
        ),
        LintCase(
            "non-string / and #",
            file(components: ##"{"/":1,"#":["x"]},{"/":"/ok","#":"ok"}"##),
            code: "lint.ignored-pattern",
            at: [#"\#(c)[0]["/"]"#, ##"\##(c)[0]["#"]"##],
            .error
        ),
        LintCase(
            "? neither string nor object",
            file(components: #"{"?":true},{"?":"a=1"},{"?":{"a":"1"}}"#),
            code: "lint.ignored-pattern",
            at: [#"\#(c)[0]["?"]"#],
            .error
        ),
        LintCase(
            "ignored pattern in defaults",
            file(components: "{}", defaults: ##"{"#":false}"##),
            code: "lint.ignored-pattern",
            at: [##"applinks.details[0].defaults["#"]"##],
            .error
        ),
        LintCase(
            "non-string query dictionary values",
            file(components: #"{"?":{"a":"1","b":2,"c":null}}"#),
            code: "lint.query-dictionary-not-string",
            at: [#"\#(c)[0]["?"].b"#, #"\#(c)[0]["?"].c"#],
            .error
        ),
        LintCase(
            "string query dictionary values",
            file(components: #"{"?":{"a":"1","b":"*"}}"#),
            code: "lint.query-dictionary-not-string",
            at: [],
            .error
        ),
        LintCase(
            "non-boolean flags",
            file(components: #"{"exclude":"true","caseSensitive":0,"percentEncoded":"no"},{"exclude":true}"#),
            code: "lint.non-boolean-flag",
            at: ["\(c)[0].exclude", "\(c)[0].caseSensitive", "\(c)[0].percentEncoded"]
        ),
        LintCase(
            "non-boolean flag in file defaults",
            #"{"applinks":{"defaults":{"caseSensitive":"false"},"details":[]}}"#,
            code: "lint.non-boolean-flag",
            at: ["applinks.defaults.caseSensitive"]
        ),
    ]

    @Test(arguments: cases)
    func table(_ row: LintCase) throws {
        try row.verify()
    }

    /// The message says what the system turns each value into (§2).
    @Test(arguments: [
        (#""true""#, "so it is true"), (#""FALSE""#, "so it is false"), ("1", "so it is true"),
        ("0", "so it is false"), (#""yes""#, "so it is false"), ("null", "so it is false"), ("[]", "so it is false"),
    ])
    func nonBooleanFlagSaysWhatItBecomes(_ value: String, _ expected: String) throws {
        let findings = try lint(Self.file(components: #"{"exclude":\#(value)}"#)).filter {
            $0.code == "lint.non-boolean-flag"
        }
        let finding = try #require(findings.first)
        #expect(finding.message.hasSuffix(expected), "\(finding.message)")
    }

    @Test func nonObjectComponentSaysItMatchesEverything() throws {
        let finding = try #require(
            try lint(Self.file(components: #""/buy/*""#)).first { $0.code == "lint.component-not-object" }
        )
        #expect(finding.message.contains("matches every URL"))
    }
}
