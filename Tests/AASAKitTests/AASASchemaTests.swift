import AASAKit
import Foundation
import Testing

/// The bundled AASA schema against docs/SEMANTICS.md §1–§5: what it accepts,
/// and where and why it rejects the rest.
@Suite struct AASASchemaTests {
    /// A file and the violations it must produce, as `(path, keyword)` in
    /// document order; empty for a valid file.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        var expected: [Expected]

        init(_ name: String, _ json: String, _ expected: [Expected] = []) {
            self.name = name
            self.json = json
            self.expected = expected
        }

        var testDescription: String { name }
    }

    struct Expected: Sendable, Hashable, CustomStringConvertible {
        var path: String
        var keyword: String

        init(_ path: String, _ keyword: String) {
            self.path = path
            self.keyword = keyword
        }

        var description: String { "\(path) [\(keyword)]" }
    }

    static let app = "ABCDE12345.com.example.app"

    /// A file whose single detail has `components` (JSON text).
    static func components(_ components: String) -> String {
        #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": \#(components)}]}}"#
    }

    static let valid: [Case] = [
        Case("empty root", "{}"),
        Case(
            "modern file with every component key",
            #"""
            {
              "applinks": {
                "defaults": {"caseSensitive": false, "percentEncoded": true},
                "details": [{
                  "appIDs": ["\#(app)", "ABCDE12345.com.example.app2"],
                  "defaults": {"percentEncoded": false},
                  "components": [
                    {"#": "no_universal_links", "exclude": true, "comment": "opt-out fragment"},
                    {"/": "/buy/*", "?": {"b": "?*"}, "caseSensitive": false},
                    {"/": "/help/$(lang)/*", "?": "a=1", "percentEncoded": false},
                    {"#": "promo"},
                    {}
                  ]
                }],
                "substitutionVariables": {"food": ["burrito", "taco*"], "digit": ["?"]}
              },
              "webcredentials": {"apps": ["\#(app)"]},
              "appclips": {"apps": ["\#(app).Clip"]},
              "activitycontinuation": {"apps": ["\#(app)"]},
              "authsrv": {"apps": ["\#(app)"]}
            }
            """#
        ),
        Case(
            "defaults holding any component key (§4)",
            ##"{"applinks": {"defaults": {"/": "/foo/*", "?": {"x": "*"}, "#": "*", "exclude": false}, "details": [{"appIDs": ["\##(app)"], "components": [{"#": "*"}]}]}}"##
        ),
        Case("query dictionary missing item reads as empty (§3.2)", components(#"[{"?": {"b": "*"}}]"#)),
        Case(
            "legacy appID and paths",
            #"{"applinks": {"apps": [], "details": [{"appID": "\#(app)", "paths": ["/buy/*", "NOT /help/*"]}]}}"#
        ),
        Case(
            "legacy details object keyed by app ID",
            #"{"applinks": {"apps": [], "details": {"\#(app)": {"paths": ["*"]}}}}"#
        ),
        Case("webcredentials only (§1)", #"{"webcredentials": {"apps": ["\#(app)"]}}"#),
        Case("unknown top-level key is left to the lints", #"{"applinks": {"details": []}, "passbook": {"apps": []}}"#),
        Case(
            "empty appIDs is accepted, as by the system",
            #"{"applinks": {"details": [{"appIDs": [], "components": []}]}}"#
        ),
        Case(
            "both components and paths (lint, not schema)",
            #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [], "paths": ["*"]}]}}"#
        ),
        Case("app ID format is lax (§1)", #"{"webcredentials": {"apps": ["not an app id"]}}"#),
    ]

    static let invalid: [Case] = [
        Case("root is an array", "[]", [Expected("(root)", "type")]),
        Case("root is a string", #""applinks""#, [Expected("(root)", "type")]),
        Case(
            "typo'd component key: casesensitive",
            components(#"[{"/": "/a", "casesensitive": false}]"#),
            [Expected("applinks.details[0].components[0].casesensitive", "additionalProperties")]
        ),
        Case(
            "typo'd component key: Exclude",
            components(#"[{"/": "/a", "Exclude": true}]"#),
            [Expected("applinks.details[0].components[0].Exclude", "additionalProperties")]
        ),
        Case(
            "component key path instead of /",
            components(#"[{"path": "/a"}]"#),
            [Expected("applinks.details[0].components[0].path", "additionalProperties")]
        ),
        Case(
            "exclude as the string \"true\"",
            components(#"[{"/": "/a", "exclude": "true"}]"#),
            [Expected("applinks.details[0].components[0].exclude", "type")]
        ),
        Case(
            "? as a number",
            components(#"[{"?": 3}]"#),
            [Expected(#"applinks.details[0].components[0]["?"]"#, "type")]
        ),
        Case(
            "? dictionary with a non-string value",
            components(#"[{"?": {"b": 1}}]"#),
            [Expected(#"applinks.details[0].components[0]["?"].b"#, "type")]
        ),
        Case(
            "/ as an array",
            components(#"[{"/": ["/a"]}]"#),
            [Expected(#"applinks.details[0].components[0]["/"]"#, "type")]
        ),
        Case(
            "# as null",
            components(##"[{"#": null}]"##),
            [Expected(##"applinks.details[0].components[0]["#"]"##, "type")]
        ),
        Case("components as an object", components("{}"), [Expected("applinks.details[0].components", "type")]),
        Case(
            "a component that is a string",
            components(#"[{"/": "/a"}, "/buy/*"]"#),
            [Expected("applinks.details[0].components[1]", "type")]
        ),
        Case(
            "legacy details object with paths as a string",
            #"{"applinks": {"details": {"\#(app)": {"paths": "/buy/*"}}}}"#,
            [Expected(#"applinks.details["\#(app)"].paths"#, "type")]
        ),
        Case(
            "legacy details object with a non-object value",
            #"{"applinks": {"details": {"\#(app)": ["/buy/*"]}}}"#,
            [Expected(#"applinks.details["\#(app)"]"#, "type")]
        ),
        Case(
            "legacy details object with components",
            #"{"applinks": {"details": {"\#(app)": {"components": []}}}}"#,
            [Expected(#"applinks.details["\#(app)"].components"#, "additionalProperties")]
        ),
        Case("details as a string", #"{"applinks": {"details": "\#(app)"}}"#, [Expected("applinks.details", "type")]),
        Case(
            "unknown applinks key",
            #"{"applinks": {"detail": []}}"#,
            [Expected("applinks.detail", "additionalProperties")]
        ),
        Case(
            "typo'd detail key appIds",
            #"{"applinks": {"details": [{"appIds": ["\#(app)"], "components": []}]}}"#,
            [Expected("applinks.details[0].appIds", "additionalProperties")]
        ),
        Case(
            "appIDs as a string",
            #"{"applinks": {"details": [{"appIDs": "\#(app)", "components": []}]}}"#,
            [Expected("applinks.details[0].appIDs", "type")]
        ),
        Case(
            "paths with a non-string entry",
            #"{"applinks": {"details": [{"appID": "\#(app)", "paths": ["/a", 7]}]}}"#,
            [Expected("applinks.details[0].paths[1]", "type")]
        ),
        Case("applinks apps as an object", #"{"applinks": {"apps": {}}}"#, [Expected("applinks.apps", "type")]),
        Case(
            "defaults flag as a string",
            #"{"applinks": {"defaults": {"caseSensitive": "false"}, "details": []}}"#,
            [Expected("applinks.defaults.caseSensitive", "type")]
        ),
        Case(
            "defaults with a key components do not have",
            #"{"applinks": {"defaults": {"excludes": true}, "details": []}}"#,
            [Expected("applinks.defaults.excludes", "additionalProperties")]
        ),
        Case(
            "detail defaults typo",
            #"{"applinks": {"details": [{"appIDs": [], "defaults": {"percentencoded": false}}]}}"#,
            [Expected("applinks.details[0].defaults.percentencoded", "additionalProperties")]
        ),
        Case(
            "substitution variable that is a string",
            #"{"applinks": {"substitutionVariables": {"food": "taco"}}}"#,
            [Expected("applinks.substitutionVariables.food", "type")]
        ),
        Case(
            "substitution value holding another variable (§5)",
            #"{"applinks": {"substitutionVariables": {"food": ["taco", "$(drink)"]}}}"#,
            [Expected("applinks.substitutionVariables.food[1]", "not")]
        ),
        Case(
            "substitution variable name with a parenthesis (§5)",
            #"{"applinks": {"substitutionVariables": {"fo(o": ["x"]}}}"#,
            [Expected(#"applinks.substitutionVariables["fo(o"]"#, "pattern")]
        ),
        Case("webcredentials without apps", #"{"webcredentials": {}}"#, [Expected("webcredentials", "required")]),
        Case(
            "webcredentials with paths instead of apps",
            #"{"webcredentials": {"paths": ["*"]}}"#,
            [Expected("webcredentials", "required"), Expected("webcredentials.paths", "additionalProperties")]
        ),
        Case("appclips app that is a number", #"{"appclips": {"apps": [1]}}"#, [Expected("appclips.apps[0]", "type")]),
        Case(
            "activitycontinuation as an array",
            #"{"activitycontinuation": []}"#,
            [Expected("activitycontinuation", "type")]
        ),
        Case("authsrv apps as a string", #"{"authsrv": {"apps": "\#(app)"}}"#, [Expected("authsrv.apps", "type")]),
        Case(
            "several problems, reported in document order",
            #"""
            {
              "webcredentials": {"apps": [true]},
              "applinks": {"details": [{"appIDs": ["\#(app)"], "components": [{"exclude": "yes", "Exclude": true}, {"?": []}]}]}
            }
            """#,
            [
                Expected("webcredentials.apps[0]", "type"),
                Expected("applinks.details[0].components[0].exclude", "type"),
                Expected("applinks.details[0].components[0].Exclude", "additionalProperties"),
                Expected(#"applinks.details[0].components[1]["?"]"#, "type"),
            ]
        ),
    ]

    @Test(arguments: valid + invalid)
    func violations(_ testCase: Case) throws {
        let file = try JSONParser().parse(testCase.json).value
        let violations = JSONSchema.appleAppSiteAssociation.validate(file)
        #expect(violations.map { Expected($0.path.description, $0.keyword) } == testCase.expected, "\(violations)")
    }

    /// Messages for the mistakes people make when typing the file by hand.
    @Test(arguments: [
        (
            components(#"[{"casesensitive": false}]"#),
            #"unknown key "casesensitive" (the system ignores unknown keys; did you mean "caseSensitive"?)"#
        ),
        (
            components(#"[{"Exclude": true}]"#),
            #"unknown key "Exclude" (the system ignores unknown keys; did you mean "exclude"?)"#
        ),
        (
            components(#"[{"percentEncode": false}]"#),
            #"unknown key "percentEncode" (the system ignores unknown keys; did you mean "percentEncoded"?)"#
        ),
        (components(#"[{"path": "/a"}]"#), #"unknown key "path" (the system ignores unknown keys)"#),
        (
            #"{"applinks": {"detail": []}}"#,
            #"unknown key "detail" (the system ignores unknown keys; did you mean "details"?)"#
        ),
        (components(#"[{"exclude": "true"}]"#), "expected boolean, got string"),
        (components(#"[{"?": 3}]"#), "expected string or object, got number"),
        (components("{}"), "expected array, got object"),
        (#"{"webcredentials": {}}"#, #"missing required key "apps""#),
        ("[]", "expected object, got array"),
        (#"{"applinks": {"substitutionVariables": {"food": ["$(drink)"]}}}"#, #"must not match the pattern "\\$\\(""#),
    ])
    func message(_ json: String, _ expected: String) throws {
        let violations = JSONSchema.appleAppSiteAssociation.validate(try JSONParser().parse(json).value)
        #expect(violations.map(\.message) == [expected])
    }

    @Test func schemaPathsPointIntoTheDefinitions() throws {
        let file = try JSONParser().parse(Self.components(#"[{"exclude": "true"}]"#)).value
        let violation = try #require(JSONSchema.appleAppSiteAssociation.validate(file).first)
        #expect(violation.schemaPath == "#/$defs/exclude/type")
    }

    /// The schema users point their editors at is the one the package ships.
    @Test func repositoryCopyIsIdenticalToTheBundledResource() throws {
        let repository = URL(filePath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let bundled = try Data(
            contentsOf: repository.appending(path: "Sources/AASAKit/Resources/apple-app-site-association.schema.json")
        )
        let published = try Data(
            contentsOf: repository.appending(path: "schema/apple-app-site-association.schema.json")
        )
        #expect(bundled == published)
        let schema = try JSONParser().parse(Array(published)).value
        #expect(schema["$schema"]?.stringValue == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["$id"]?.stringValue?.hasPrefix("https://swift-aasa.invalid/") == true)
        _ = try JSONSchema(bytes: Array(published))
    }
}
