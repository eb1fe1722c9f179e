import AASAKit
import Foundation
import Testing

/// Runs the official JSON-Schema-Test-Suite (draft 2020-12) against
/// `JSONSchema`, one test per case. The vendored files and their upstream
/// commit are under `Fixtures/json-schema-test-suite`.
@Suite struct JSONSchemaTestSuiteTests {
    /// One test of the suite: a schema, an instance and whether it is valid.
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var group: String
        var test: String
        var schema: JSONValue
        var data: JSONValue
        var valid: Bool

        var testDescription: String { "\(file): \(group) / \(test)" }
    }

    /// Upstream files that are not vendored, with why.
    static let skippedFiles: [(file: String, reason: String)] = [
        (
            "refRemote.json",
            "every case $refs a remote schema (http://localhost:1234/…); remote schemas are never fetched"
        ),
        ("dynamicRef.json", "$dynamicRef/$dynamicAnchor are not supported (refused at compile time)"),
        ("unevaluatedItems.json", "needs annotation collection, not supported (refused at compile time)"),
        ("unevaluatedProperties.json", "needs annotation collection, not supported (refused at compile time)"),
        ("vocabulary.json", "custom metaschemas named by a remote $schema (http://localhost:1234/…)"),
        ("optional/", "optional behaviour (bignum, ECMA-262 regex corner cases, format assertion, …)"),
    ]

    /// Groups skipped inside vendored files, with why.
    static let skippedGroups: [(file: String, group: String, reason: String)] = [
        ("defs.json", "validate definition against metaschema", "$refs the remote draft 2020-12 metaschema"),
        ("ref.json", "remote ref, containing refs itself", "$refs the remote draft 2020-12 metaschema"),
        ("ref.json", "ref creates new scope when adjacent to keywords", "uses unevaluatedProperties"),
        (
            "not.json", "collect annotations inside a 'not', even if collection is disabled",
            "uses unevaluatedProperties"
        ),
    ]

    static let directory = "Fixtures/json-schema-test-suite/tests/draft2020-12"

    /// Every vendored case that is not skipped. Empty when the fixtures are
    /// missing, which `summary` reports as a failure.
    static let cases: [Case] = (try? loadCases()) ?? []

    static func loadCases() throws -> [Case] {
        let directory = try #require(Bundle.module.resourceURL).appending(path: Self.directory)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
            .sorted()
        var cases: [Case] = []
        for file in files {
            let bytes = Array(try Data(contentsOf: directory.appending(path: file)))
            let groups = try #require(try JSONParser().parse(bytes).value.arrayValue)
            for group in groups {
                let groupDescription = try #require(group["description"]?.stringValue)
                if skippedGroups.contains(where: { $0.file == file && $0.group == groupDescription }) { continue }
                let schema = try #require(group["schema"])
                for test in try #require(group["tests"]?.arrayValue) {
                    cases.append(
                        Case(
                            file: file,
                            group: groupDescription,
                            test: try #require(test["description"]?.stringValue),
                            schema: schema,
                            data: try #require(test["data"]),
                            valid: try #require(test["valid"]).boolValue == true
                        )
                    )
                }
            }
        }
        return cases
    }

    static func passes(_ testCase: Case) throws -> Bool {
        let schema = try JSONSchema(testCase.schema)
        return schema.validate(testCase.data).isEmpty == testCase.valid
    }

    @Test(arguments: cases)
    func suiteCase(_ testCase: Case) throws {
        let schema = try JSONSchema(testCase.schema)
        let violations = schema.validate(testCase.data)
        #expect(violations.isEmpty == testCase.valid, "violations: \(violations)")
    }

    @Test func summary() throws {
        let cases = try Self.loadCases()
        let files = Set(cases.map(\.file))
        let passed = try cases.filter(Self.passes).count
        // Pinned to the vendored UPSTREAM_COMMIT, so that a case lost to a
        // loading or filtering mistake shows. 41 files are vendored; the only
        // group of defs.json is skipped.
        #expect(files.count == 40)
        #expect(cases.count == 1_012)
        #expect(passed == cases.count)
        let skipped =
            Self.skippedFiles.map { "\($0.file) (\($0.reason))" }
            + Self.skippedGroups.map { "\($0.file) \"\($0.group)\" (\($0.reason))" }
        print(
            "JSON-Schema-Test-Suite: \(passed) cases passed in \(files.count) files; skipped: \(skipped.joined(separator: "; "))"
        )
    }

    /// The skip lists must not rot: skipped files are really absent, skipped
    /// groups really present.
    @Test func skipListsMatchTheFixtures() throws {
        let directory = try #require(Bundle.module.resourceURL).appending(path: Self.directory)
        let vendored = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        for skipped in Self.skippedFiles where skipped.file.hasSuffix(".json") {
            #expect(!vendored.contains(skipped.file), "\(skipped.file) is vendored but listed as skipped")
        }
        for skipped in Self.skippedGroups {
            let bytes = Array(try Data(contentsOf: directory.appending(path: skipped.file)))
            let groups = try #require(try JSONParser().parse(bytes).value.arrayValue)
            #expect(
                groups.contains { $0["description"]?.stringValue == skipped.group },
                "no group \"\(skipped.group)\" in \(skipped.file)"
            )
        }
    }
}

extension JSONSchemaTestSuiteTests {
    /// What the suite does not cover: compile errors, cycles, depth, and the
    /// wording and placement of violations.
    @Suite struct Behaviour {
        static func schema(_ json: String) throws -> JSONSchema {
            try JSONSchema(JSONParser().parse(json).value)
        }

        static func validate(_ schema: String, _ instance: String) throws -> [SchemaViolation] {
            try Self.schema(schema).validate(JSONParser().parse(instance).value)
        }

        static let compileErrors: [(schema: String, kind: JSONSchemaError.Kind, schemaPath: String)] = [
            ("5", .invalidSchema, "#"),
            (#"{"properties": {"a": "string"}}"#, .invalidSchema, "#/properties/a"),
            (#"{"type": "text"}"#, .invalidSchema, "#/type"),
            (#"{"minLength": -1}"#, .invalidSchema, "#/minLength"),
            (#"{"items": [{"type": "string"}]}"#, .invalidSchema, "#/items"),
            (#"{"pattern": "("}"#, .invalidPattern, "#/pattern"),
            (#"{"patternProperties": {"[": true}}"#, .invalidPattern, "#/patternProperties/["),
            (##"{"$ref": "#/$defs/missing"}"##, .unresolvableReference, "#/$ref"),
            (##"{"$ref": "#nowhere"}"##, .unresolvableReference, "#/$ref"),
            (#"{"$ref": "https://json-schema.org/draft/2020-12/schema"}"#, .unresolvableReference, "#/$ref"),
            (#"{"unevaluatedProperties": false}"#, .unsupportedKeyword, "#/unevaluatedProperties"),
            (##"{"$ref": "#"}"##, .circularReference, "#"),
            (
                ##"{"$defs": {"a": {"allOf": [{"$ref": "#/$defs/b"}]}, "b": {"not": {"$ref": "#/$defs/a"}}}, "$ref": "#/$defs/a"}"##,
                .circularReference, "#/$defs/a"
            ),
        ]

        @Test(arguments: compileErrors)
        func compileError(_ json: String, _ kind: JSONSchemaError.Kind, _ schemaPath: String) throws {
            let error = try #require(throws: JSONSchemaError.self) { try Self.schema(json) }
            #expect(error.kind == kind)
            #expect(error.schemaPath == schemaPath)
        }

        @Test func invalidJSONIsWrapped() throws {
            let error = try #require(throws: JSONSchemaError.self) { try JSONSchema(bytes: Array(#"{"type": }"#.utf8)) }
            #expect(error.kind == .invalidJSON)
            #expect(error.message.contains("line 1"))
        }

        /// Recursion through `$ref` that descends into the instance is fine,
        /// however deep; past the evaluation limit it is a violation, not a crash.
        @Test func deepRecursionIsBounded() throws {
            let schema = try Self.schema(##"{"type": "object", "properties": {"next": {"$ref": "#"}}}"##)
            func chain(_ depth: Int) -> JSONValue {
                var value = JSONValue.object(JSONObject())
                for _ in 0..<depth { value = .object(JSONObject([("next", value)])) }
                return value
            }
            #expect(schema.validate(chain(100)).isEmpty)
            let deep = schema.validate(chain(5_000))
            #expect(deep.count == 1)
            #expect(deep.first?.message.contains("nested too deeply") == true)
        }

        @Test func violationsThroughRefsReportTheDefinitionsLocation() throws {
            let violations = try Self.validate(
                ##"{"$defs": {"flag": {"type": "boolean"}}, "properties": {"on": {"$ref": "#/$defs/flag"}}}"##,
                #"{"on": 1}"#
            )
            #expect(
                violations == [
                    SchemaViolation(
                        path: JSONPath([.key("on")]),
                        keyword: "type",
                        schemaPath: "#/$defs/flag/type",
                        message: "expected boolean, got number"
                    )
                ]
            )
        }

        /// `anyOf`/`oneOf` report the alternative the value was meant for.
        @Test(arguments: [
            (#"{"a": 1}"#, ["a: expected string, got number"]),
            (#"{}"#, [#"(root): missing required key "a""#]),
            ("3", ["(root): expected object or string, got number"]),
        ])
        func alternativesExplainTheLikelyBranch(_ instance: String, _ expected: [String]) throws {
            for keyword in ["anyOf", "oneOf"] {
                let schema =
                    #"{"\#(keyword)": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, {"type": "string"}]}"#
                #expect(try Self.validate(schema, instance).map(\.description) == expected)
            }
        }

        @Test func oneOfMatchingSeveralSaysWhich() throws {
            let violations = try Self.validate(#"{"oneOf": [{"type": "integer"}, {"minimum": 0}]}"#, "3")
            #expect(violations.map(\.message) == ["matches 2 of the alternatives (0, 1); exactly one must match"])
        }

        @Test func messages() throws {
            let cases: [(schema: String, instance: String, message: String)] = [
                (#"{"enum": ["a", "b"]}"#, #""c""#, #"expected one of "a", "b", got "c""#),
                (#"{"const": 1}"#, "2", "expected 1, got 2"),
                (#"{"minLength": 2}"#, #""💩""#, "expected at least 2 characters, got 1"),
                (#"{"pattern": "^a+$"}"#, #""ab""#, #""ab" does not match the pattern "^a+$""#),
                (#"{"minimum": 1.5}"#, "1", "expected a number >= 1.5, got 1"),
                (#"{"minItems": 1}"#, "[]", "expected at least 1 item, got 0"),
                (#"{"prefixItems": [true], "items": false}"#, "[1, 2]", "unexpected item: at most 1 item allowed"),
                (
                    #"{"dependentRequired": {"a": ["b"]}}"#, #"{"a": 1}"#,
                    #"missing key "b", required when "a" is present"#
                ),
                (#"{"not": {"const": "x"}}"#, #""x""#, #"must not be "x""#),
                (#"{"properties": {"a": false}}"#, #"{"a": 1}"#, "no value is allowed here"),
                (
                    #"{"propertyNames": {"maxLength": 2}}"#, #"{"abc": 1}"#,
                    "invalid key: expected at most 2 characters, got 3"
                ),
            ]
            for (schema, instance, message) in cases {
                #expect(try Self.validate(schema, instance).map(\.message) == [message], "\(schema)")
            }
        }

        @Test func uniqueItemsPointsAtTheRepeat() throws {
            let violations = try Self.validate(#"{"uniqueItems": true}"#, #"["a", 1, {"x": 1.0}, {"x": 1}]"#)
            #expect(violations.map(\.description) == ["[3]: same as item 2; items must be unique"])
        }

        /// Suggestions for keys rejected by `additionalProperties: false`.
        @Test(arguments: [
            ("compnents", #"; did you mean "components"?"#),
            ("APPIDS", #"; did you mean "appIDs"?"#),
            ("path", #"; did you mean "paths"?"#),
            ("x", ""),
            ("defaultz", #"; did you mean "defaults"?"#),
            ("cmponnts", #"; did you mean "components"?"#),
            ("cmpnts", ""),
        ])
        func unknownKeySuggestion(_ key: String, _ suggestion: String) throws {
            let schema =
                #"{"properties": {"appIDs": true, "components": true, "paths": true, "defaults": true}, "additionalProperties": false}"#
            let violations = try Self.validate(schema, #"{"\#(key)": 1}"#)
            #expect(
                violations.map(\.message) == [#"unknown key "\#(key)" (the system ignores unknown keys\#(suggestion))"#]
            )
        }

        @Test func violationsFollowTheDocumentOrder() throws {
            let schema =
                #"{"properties": {"b": {"type": "string"}, "a": {"type": "string"}}, "required": ["c"], "additionalProperties": false}"#
            let violations = try Self.validate(schema, #"{"z": 0, "a": 1, "b": 2}"#)
            #expect(violations.map(\.path.description) == ["(root)", "z", "a", "b"])
        }

        /// The compiled schema is shared across tasks, as the server does.
        @Test func validatesConcurrently() async throws {
            let schema = JSONSchema.appleAppSiteAssociation
            let file = try JSONParser().parse(
                #"{"applinks": {"details": [{"appIDs": [], "components": [{"exclude": 1}]}]}}"#
            ).value
            let counts = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { schema.validate(file).count } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(counts == Array(repeating: 1, count: 8))
        }
    }
}
