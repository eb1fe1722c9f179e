import Testing

@testable import AASAKit

/// One row of a lint table: a file, the lint code under test, and the paths
/// where it must fire (none: it must stay quiet).
struct LintCase: Sendable, CustomTestStringConvertible {
    var name: String
    var json: String
    var code: String
    var paths: [String]
    var severity: Severity
    var byteCount: Int?

    init(
        _ name: String,
        _ json: String,
        code: String,
        at paths: [String],
        _ severity: Severity = .warning,
        byteCount: Int? = nil
    ) {
        self.name = name
        self.json = json
        self.code = code
        self.paths = paths
        self.severity = severity
        self.byteCount = byteCount
    }

    var testDescription: String { name }

    /// Runs the linter and checks that `code` fires exactly at `paths` with
    /// `severity`.
    func verify(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let document = try JSONParser().parse(json)
        let findings = Linter().lint(document.value, byteCount: byteCount ?? json.utf8.count).filter { $0.code == code }
        #expect(findings.map(\.path.description) == paths, "\(findings)", sourceLocation: sourceLocation)
        for finding in findings {
            #expect(finding.severity == severity, "\(finding)", sourceLocation: sourceLocation)
            #expect(!finding.message.isEmpty, sourceLocation: sourceLocation)
        }
    }
}

/// Lints the text and returns every finding.
func lint(_ json: String) throws -> [Diagnostic] {
    Linter().lint(try JSONParser().parse(json).value, byteCount: json.utf8.count)
}

@Suite("Service, details and size lints")
struct ServiceLintTests {
    static let cases: [LintCase] = [
        LintCase(
            "applinks only is fine",
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.a"],"components":[{"/":"/a"}]}]}}"#,
            code: "lint.no-service",
            at: []
        ),
        LintCase(
            "webcredentials only is fine",
            #"{"webcredentials":{"apps":["ABCDE12345.com.a"]}}"#,
            code: "lint.no-service",
            at: []
        ),
        LintCase("no known service", #"{"applink":{"details":[]}}"#, code: "lint.no-service", at: ["(root)"]),
        LintCase("empty root", #"{}"#, code: "lint.no-service", at: ["(root)"]),
        LintCase(
            "unknown top-level key",
            #"{"applinks":{"details":[]},"applink":{},"extra":1}"#,
            code: "lint.unknown-service",
            at: ["applink", "extra"]
        ),
        LintCase("known keys only", #"{"applinks":{},"appclips":{"apps":[]}}"#, code: "lint.unknown-service", at: []),
        LintCase(
            "legacy apps non-empty",
            #"{"applinks":{"apps":["X"],"details":[]}}"#,
            code: "lint.legacy-apps",
            at: ["applinks.apps"]
        ),
        LintCase("legacy apps empty", #"{"applinks":{"apps":[],"details":[]}}"#, code: "lint.legacy-apps", at: []),
        LintCase(
            "details dictionary",
            #"{"applinks":{"details":{"ABCDE12345.com.a":{"paths":["*"]}}}}"#,
            code: "lint.legacy-details-dictionary",
            at: ["applinks.details"]
        ),
        LintCase("details array", #"{"applinks":{"details":[]}}"#, code: "lint.legacy-details-dictionary", at: []),
        LintCase(
            "empty details array",
            #"{"applinks":{"details":[]}}"#,
            code: "lint.empty-details",
            at: ["applinks.details"]
        ),
        LintCase(
            "empty details dictionary",
            #"{"applinks":{"details":{}}}"#,
            code: "lint.empty-details",
            at: ["applinks.details"]
        ),
        LintCase("non-empty details", #"{"applinks":{"details":[{"appIDs":[]}]}}"#, code: "lint.empty-details", at: []),
        LintCase(
            "appID and appIDs",
            #"{"applinks":{"details":[{"appID":"ABCDE12345.com.a","appIDs":["ABCDE12345.com.a"]}]}}"#,
            code: "lint.app-id-ignored",
            at: ["applinks.details[0].appID"]
        ),
        LintCase(
            "appID with non-array appIDs is used",
            #"{"applinks":{"details":[{"appID":"ABCDE12345.com.a","appIDs":"x"}]}}"#,
            code: "lint.app-id-ignored",
            at: []
        ),
        LintCase(
            "paths and components",
            #"{"applinks":{"details":[{"paths":["*"],"components":[]}]}}"#,
            code: "lint.paths-ignored",
            at: ["applinks.details[0].paths"]
        ),
        LintCase(
            "entries naming no app",
            #"{"applinks":{"details":[{"appIDs":[]},{"components":[]},{"appID":"ABCDE12345.com.a"},{"appIDs":["x"]}]}}"#,
            code: "lint.no-app-ids",
            at: ["applinks.details[0].appIDs", "applinks.details[1]"]
        ),
        LintCase(
            "legacy dictionary entries name their app in the key",
            #"{"applinks":{"details":{"ABCDE12345.com.a":{"paths":["*"]}}}}"#,
            code: "lint.no-app-ids",
            at: []
        ),
        LintCase(
            "paths alone",
            #"{"applinks":{"details":[{"paths":["*"]}]}}"#,
            code: "lint.paths-ignored",
            at: []
        ),
        LintCase(
            "near the size cap",
            #"{"applinks":{}}"#,
            code: "lint.file-size-near-limit",
            at: ["(root)"],
            byteCount: 120_000
        ),
        LintCase(
            "well under the cap",
            #"{"applinks":{}}"#,
            code: "lint.file-size-near-limit",
            at: [],
            byteCount: 100_000
        ),
    ]

    @Test(arguments: cases)
    func table(_ row: LintCase) throws {
        try row.verify()
    }

    @Test func unknownServiceSuggestsTheNearestService() throws {
        let finding = try #require(try lint(#"{"applink":{}}"#).first { $0.code == "lint.unknown-service" })
        #expect(finding.message.contains(#"did you mean "applinks"?"#))
    }

    @Test func emptyComponentsAreCalledOutWhenTheyHidePaths() throws {
        let finding = try #require(
            try lint(#"{"applinks":{"details":[{"paths":["*"],"components":[]}]}}"#).first {
                $0.code == "lint.paths-ignored"
            }
        )
        #expect(finding.message.contains("matches no URL"))
    }

    /// The quadratic unreachable-rule check has a budget, so a generated
    /// file cannot stall a reload.
    @Test(arguments: [(700, false), (800, true)])
    func unreachableRuleCheckIsBounded(_ ruleCount: Int, _ skipped: Bool) throws {
        let components = (0..<ruleCount).map { #"{"/":"/a\#($0)"}"# }.joined(separator: ",")
        let json = #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.a"],"components":[\#(components)]}]}}"#
        let budget = Linter.unreachableRulePairBudget
        #expect((ruleCount * (ruleCount - 1) / 2 > budget) == skipped)
        if skipped {
            let codes = try lint(json).map(\.code)
            #expect(codes == ["lint.unreachable-rule-skipped"])
        }
    }

    @Test func shadowedRulesAreReported() throws {
        let json =
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.a"],"components":[{"/":"*"},{"/":"/a","exclude":true}]}]}}"#
        #expect(try lint(json).map(\.code) == ["lint.unreachable-exclude"])
    }

    @Test func nonObjectRootYieldsNoLints() {
        #expect(Linter().lint([1, 2], byteCount: 5).isEmpty)
    }
}

@Suite("App ID lints")
struct AppIDLintTests {
    static let cases: [LintCase] = [
        LintCase(
            "well-formed",
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app","AB12CD34.com.x"]}]}}"#,
            code: "lint.app-id-format",
            at: []
        ),
        LintCase(
            "malformed prefixes and bundles",
            #"{"applinks":{"details":[{"appIDs":["abcde12345.com.a","ABCDE1234.com.a","com.example.app","ABCDE12345.com..a","ABCDE12345.com.a "]}]}}"#,
            code: "lint.app-id-format",
            at: (0..<5).map { "applinks.details[0].appIDs[\($0)]" }
        ),
        LintCase(
            "no dot",
            #"{"webcredentials":{"apps":["ABCDE12345"]},"authsrv":{"apps":["ABCDE12345.ok","bad"]}}"#,
            code: "lint.app-id-format",
            at: ["webcredentials.apps[0]", "authsrv.apps[1]"]
        ),
        LintCase(
            "legacy dictionary key",
            #"{"applinks":{"details":{"team.app":{"paths":["*"]}}}}"#,
            code: "lint.app-id-format",
            at: [#"applinks.details["team.app"]"#]
        ),
        LintCase(
            "legacy appID",
            #"{"applinks":{"details":[{"appID":"TEAM.app"}]}}"#,
            code: "lint.app-id-format",
            at: ["applinks.details[0].appID"]
        ),
        LintCase(
            "duplicate across entries",
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.a"]},{"appIDs":["ABCDE12345.com.b","ABCDE12345.com.a"]},{"appID":"ABCDE12345.com.b"}]}}"#,
            code: "lint.duplicate-app-id",
            at: ["applinks.details[1].appIDs[1]", "applinks.details[2].appID"]
        ),
        LintCase(
            "repeated within one entry is harmless",
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.a","ABCDE12345.com.a"]}]}}"#,
            code: "lint.duplicate-app-id",
            at: []
        ),
        LintCase(
            "ignored appID does not count",
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.a"],"appID":"ABCDE12345.com.b"},{"appIDs":["ABCDE12345.com.b"]}]}}"#,
            code: "lint.duplicate-app-id",
            at: []
        ),
    ]

    @Test(arguments: cases)
    func table(_ row: LintCase) throws {
        try row.verify()
    }

    @Test(arguments: [
        ("ABCDE12345.com.example.app", true), ("AB12CD34.com.x", true), ("ABCDE12345.a-b.c1", true),
        ("ABCDE1234.com.x", false), ("ABCDE123456.com.x", false), ("abcde12345.com.x", false),
        ("ABCDE12345.", false), ("ABCDE12345.com_x", false), ("ABCDE12345", false), ("ABCDE12345.com.x.", false),
    ])
    func appIDShape(_ appID: String, _ valid: Bool) {
        #expect((AppIDFormat.problem(with: appID) == nil) == valid)
    }

    /// `$(` found by bytes, wherever it sits; a `$` or `(` alone is not one.
    @Test(arguments: [
        ("$(", true), ("a$(b", true), ("é$(x)", true), ("x$$(", true),
        ("", false), ("$", false), ("(", false), ("$ (", false), ("($", false), ("$)", false),
    ])
    func referenceStartIsFoundByBytes(_ text: String, _ opens: Bool) {
        #expect(VariableLints.opensReference(text) == opens)
    }

    /// The one-pass check accepts exactly what the explaining one accepts,
    /// on edge cases and on every tail of up to three characters over the
    /// ones that matter, behind prefixes of each interesting length.
    @Test func appIDFastCheckAgreesWithTheExplanation() {
        let edges = [
            "", ".", "..", ".com.x", "ABCDE12345..x", "ABCDE12345.x..y", "ABCDE12345.x.", "ABCDE12345.-", "AB12CD34.x",
            "ABCDE1234É.com.x", "ABCDE12345.cöm.x", "ABCDE12345.com x", "ABCDE12345.com.x\n", "A.B", "ABCDEFGHIJ.a",
        ]
        let alphabet = ["a", "Z", "0", ".", "-", "_", "é", " "]
        var tails = [""]
        var longest = [""]
        for _ in 0..<3 {
            longest = longest.flatMap { tail in alphabet.map { tail + $0 } }
            tails += longest
        }
        let generated = ["", "AB12CD34", "ABCDE1234", "ABCDE12345", "ABCDE12345."].flatMap { prefix in
            tails.map { prefix + $0 }
        }
        #expect(generated.count == 5 * 585)
        for appID in edges + generated {
            #expect(AppIDFormat.isWellFormed(appID) == (AppIDFormat.explanation(for: appID) == nil), "\(appID)")
        }
    }
}
