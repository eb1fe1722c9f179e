import Testing

@testable import AASAKit

/// A file or entry that is valid JSON, passes the schema, and opens no link:
/// each used to validate without a word.
@Suite("Lints for applinks that open no link")
struct OpensNoLinkLintTests {
    static let cases: [LintCase] = [
        LintCase("applinks without details", #"{"applinks":{}}"#, code: "lint.no-details", at: ["applinks"]),
        LintCase(
            "applinks with only the legacy apps key",
            #"{"applinks":{"apps":[]},"webcredentials":{"apps":["ABCDE12345.com.a"]}}"#,
            code: "lint.no-details",
            at: ["applinks"]
        ),
        LintCase("empty details is another lint's", #"{"applinks":{"details":[]}}"#, code: "lint.no-details", at: []),
        LintCase(
            "no applinks at all is legitimate",
            #"{"webcredentials":{"apps":["ABCDE12345.com.a"]}}"#,
            code: "lint.no-details",
            at: []
        ),
        LintCase(
            "entries without rules",
            """
            {"applinks":{"details":[
              {"appIDs":["ABCDE12345.com.x.y"],"components":[]},
              {"appIDs":["ABCDE12345.com.b"]},
              {"appID":"ABCDE12345.com.c","paths":[]},
              {"appIDs":["ABCDE12345.com.d"],"components":[{"/":"/d"}]}
            ]}}
            """,
            code: "lint.no-rules",
            at: ["applinks.details[0].components", "applinks.details[1]", "applinks.details[2].paths"]
        ),
        LintCase(
            "legacy dictionary entry without paths",
            #"{"applinks":{"details":{"ABCDE12345.com.a":{},"ABCDE12345.com.b":{"paths":["/b"]}}}}"#,
            code: "lint.no-rules",
            at: [#"applinks.details["ABCDE12345.com.a"]"#]
        ),
        LintCase(
            "reported elsewhere: no app, an app decided earlier, paths hidden by empty components",
            """
            {"applinks":{"details":[
              {"appIDs":[],"components":[]},
              {"appIDs":["ABCDE12345.com.a"],"components":[{"/":"*"}]},
              {"appIDs":["ABCDE12345.com.a"],"components":[]},
              {"appIDs":["ABCDE12345.com.b"],"components":[],"paths":["*"]}
            ]}}
            """,
            code: "lint.no-rules",
            at: []
        ),
        LintCase(
            "an entry of the same app listed again is still reported for the new app",
            """
            {"applinks":{"details":[
              {"appIDs":["ABCDE12345.com.a"],"components":[{"/":"*"}]},
              {"appIDs":["ABCDE12345.com.a","ABCDE12345.com.b"]}
            ]}}
            """,
            code: "lint.no-rules",
            at: ["applinks.details[1]"]
        ),
        LintCase(
            "only exclusions",
            """
            {"applinks":{"details":[
              {"appIDs":["ABCDE12345.com.a"],"components":[{"/":"/admin/*","exclude":true},{"?":"x=*","exclude":true}]},
              {"appIDs":["ABCDE12345.com.b"],"paths":["NOT /admin/*","not /private/*"]},
              {"appIDs":["ABCDE12345.com.c"],"components":[{"/":"/admin/*","exclude":true},{"/":"*"}]},
              {"appIDs":["ABCDE12345.com.d"],"paths":["NOT /admin/*","*"]}
            ]}}
            """,
            code: "lint.only-exclusions",
            at: ["applinks.details[0].components", "applinks.details[1].paths"]
        ),
        LintCase(
            "a component that is not an object matches everything",
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.a"],"components":[{"/":"/a","exclude":true},"x"]}]}}"#,
            code: "lint.only-exclusions",
            at: []
        ),
    ]

    @Test(arguments: cases)
    func table(_ row: LintCase) throws {
        try row.verify()
    }

    @Test func messagesNameTheAppsThatOpenNothing() throws {
        let json = #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.x.y"],"components":[]}]}}"#
        let finding = try #require(try lint(json).first { $0.code == "lint.no-rules" })
        #expect(finding.message.contains("ABCDE12345.com.x.y opens no link"))
    }

    /// The three cases of the audit, end to end through the validator: each
    /// is a warning, so `validate` exits 0, and 1 under `--strict`.
    @Test(arguments: [
        (#"{"applinks":{}}"#, "lint.no-details"),
        (#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.x.y"],"components":[]}]}}"#, "lint.no-rules"),
        (#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.x.y"]}]}}"#, "lint.no-rules"),
    ])
    func validatorWarns(_ json: String, _ code: String) {
        let report = AASAValidator().validate(bytes: Array(json.utf8), file: "f")
        #expect(report.diagnostics.map(\.code) == [code])
        #expect(report.warningCount == 1 && !report.hasErrors)
    }
}
