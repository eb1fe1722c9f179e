import Foundation
import Testing

@testable import AASAKit

/// The bytes of a file under `Fixtures/validate`.
func validateFixture(_ relativePath: String) throws -> [UInt8] {
    let base = try #require(Bundle.module.resourceURL).appendingPathComponent("Fixtures/validate")
    return Array(try Data(contentsOf: base.appendingPathComponent(relativePath)))
}

@Suite("AASA validator")
struct ValidatorTests {
    let validator = AASAValidator()

    @Test func wellFormedFileHasNoFindings() throws {
        let report = validator.validate(
            bytes: try validateFixture("aasa/example.com/apple-app-site-association"),
            file: "x"
        )
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.description))")
        #expect(!report.hasErrors)
        #expect(report.json != nil)
        #expect(report.document?.appLinksAppIDs == ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app.beta"])
    }

    @Test func realWorldFileHasNoErrors() throws {
        let base = try #require(Bundle.module.resourceURL)
        let bytes = Array(
            try Data(contentsOf: base.appendingPathComponent("Fixtures/lieferando/apple-app-site-association"))
        )
        let report = validator.validate(bytes: bytes)
        #expect(!report.hasErrors, "\(report.diagnostics.map(\.description))")
    }

    /// The "done" criterion: a typo'd key, a wrong type and an unknown
    /// service, each with its path, in document order, errors first.
    @Test func typoWrongTypeAndUnknownServiceAreReportedWithPaths() throws {
        let file = "aasa/example.org/apple-app-site-association"
        let report = validator.validate(bytes: try validateFixture(file), file: file)
        let lines = report.diagnostics.map(\.description)
        #expect(report.hasErrors)
        let typo = try #require(lines.first { $0.contains("[schema.additionalProperties]") })
        #expect(
            typo.hasPrefix(
                "\(file): applinks.details[0].components[1].casesensitive: error: unknown key \"casesensitive\""
            )
        )
        #expect(typo.contains("caseSensitive"))
        #expect(
            lines.contains(
                "\(file): applinks.details[0].components[2].exclude: error: expected boolean, got string [schema.type]"
            )
        )
        #expect(
            lines.contains {
                $0.hasPrefix("\(file): applinks.details[0].components[2].exclude: warning: exclude should be a boolean")
            }
        )
        #expect(
            lines.contains { $0.hasPrefix("\(file): webcredential: warning: unknown top-level key \"webcredential\"") }
        )
        #expect(report.diagnostics.allSatisfy { $0.file == file })
        let severities = report.diagnostics.map(\.severity)
        #expect(severities == severities.sorted(by: >))
        let errorPaths = report.diagnostics.filter { $0.severity == .error }.map(\.path.description)
        #expect(
            errorPaths == [
                "applinks.details[0].components[1].casesensitive", "applinks.details[0].components[2].exclude",
            ]
        )
    }

    @Test func nonObjectRootIsOneTypeError() throws {
        let report = validator.validate(bytes: try validateFixture("array-root.json"), file: "f")
        #expect(report.diagnostics.map(\.code) == ["schema.type"])
        #expect(report.diagnostics.first?.description.hasPrefix("f: (root): error: expected object, got array") == true)
        #expect(report.json != nil)
        #expect(report.document == nil)
    }

    @Test func invalidJSONReportsLineAndColumn() throws {
        let report = validator.validate(bytes: try validateFixture("invalid-syntax.json"), file: "f")
        #expect(report.diagnostics.count == 1)
        let diagnostic = try #require(report.diagnostics.first)
        #expect(diagnostic.code == "json.syntax")
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.message.hasPrefix("invalid JSON at line 4, column 49: expected ',' or '}'"))
        #expect(report.json == nil)
        #expect(report.document == nil)
    }

    @Test(arguments: [
        ([UInt8](), "the file is empty"),
        ([0xEF, 0xBB, 0xBF] + Array(#"{"applinks":{}}"#.utf8), "byte-order mark"),
        (Array(#"{"a":"\#u{FF}"}"#.utf8).map { $0 == 0xC3 ? 0xFF : $0 }, "invalid UTF-8"),
    ])
    func notJSON(_ bytes: [UInt8], _ fragment: String) throws {
        let diagnostic = try #require(validator.validate(bytes: bytes).diagnostics.first)
        #expect(diagnostic.code == "json.syntax")
        #expect(diagnostic.message.contains(fragment), "\(diagnostic.message)")
    }

    @Test func fileOverTheCapIsRejectedWithoutParsing() {
        // 200 KB of something that is not even JSON: the cap must come first.
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 200 * 1024)
        let report = validator.validate(bytes: bytes, file: "big")
        #expect(report.diagnostics.map(\.code) == ["file.too-large"])
        #expect(
            report.diagnostics.first?.description == """
                big: (root): error: the file is 204,800 bytes; the system accepts at most 131,072 bytes (128 KiB, \
                uncompressed) and aborts past that, so none of the file is used [file.too-large]
                """
        )
        #expect(report.json == nil)
    }

    @Test func fileAtTheCapIsParsedAndWarned() {
        let bytes = Self.padded(#"{"applinks":{"details":[]}}"#, to: AASAValidator.maximumFileSize)
        let codes = validator.validate(bytes: bytes).diagnostics.map(\.code)
        #expect(codes.contains("lint.file-size-near-limit"))
        #expect(!codes.contains("file.too-large"))
    }

    @Test func duplicateKeysWarnAndTheLastWins() throws {
        let json = #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.a"],"components":[{"/":"/a","/":"/b"}]}]}}"#
        let report = validator.validate(bytes: Array(json.utf8))
        let duplicate = try #require(report.diagnostics.first { $0.code == "json.duplicate-key" })
        #expect(duplicate.severity == .warning)
        #expect(duplicate.path.description == #"applinks.details[0].components[0]["/"]"#)
        #expect(report.json?.value(at: duplicate.path) == "/b")
    }

    @Test func structuralTypeErrorsSayWhatTheSystemDoes() throws {
        let json = #"{"applinks":{"substitutionVariables":{"a":"x"},"details":[{"appIDs":"ABCDE12345.com.a"}]}}"#
        let messages = validator.validate(bytes: Array(json.utf8)).diagnostics.filter { $0.code == "schema.type" }
        #expect(messages.map(\.path.description) == ["applinks.substitutionVariables.a", "applinks.details[0].appIDs"])
        #expect(messages.first?.message.contains("the variable is then undefined") == true)
        #expect(messages.last?.message.contains("uses appID") == true)
    }

    @Test func lintsRunAfterTheSchema() throws {
        let json = #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.a"],"components":[{"/":"/$(nope)"}]}]}}"#
        let report = validator.validate(bytes: Array(json.utf8))
        #expect(report.diagnostics.map(\.code) == ["lint.undefined-variable"])
        #expect(report.hasErrors)
    }

    @Test func customSchemaReplacesTheBundledOne() throws {
        let schema = try JSONSchema(bytes: Array(#"{"type":"object","required":["x"]}"#.utf8))
        let file = #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.a"],"components":[{"/":"/a"}]}]}}"#
        let report = AASAValidator(schema: schema).validate(bytes: Array(file.utf8))
        #expect(report.diagnostics.map(\.code) == ["schema.required"])
    }

    /// Any byte string yields a report: the origin relies on it.
    @Test(arguments: [
        "{", "}", "[[[[[[[[[[", String(repeating: "[", count: 100_000), "nul", #"{"applinks":null}"#,
        #"{"applinks":{"details":[null,1,"x",[],{"components":[null,{"?":{"a":[]}}],"paths":[1]}]}}"#,
        #"{"applinks":{"details":{"x":1,"y":{"paths":"*"}},"defaults":[],"substitutionVariables":[]}}"#,
    ])
    func neverCrashes(_ text: String) {
        _ = validator.validate(bytes: Array(text.utf8))
    }

    @Test func documentOrderPutsParentsFirstAndFollowsMemberOrder() throws {
        let json = try JSONParser().parse(#"{"b":{"y":1,"x":[0,1]},"a":2}"#).value
        let paths = [
            JSONPath([.key("a")]), JSONPath([.key("b"), .key("x"), .index(1)]), JSONPath([.key("b")]),
            JSONPath([.key("b"), .key("x"), .index(0)]), JSONPath([.key("b"), .key("y")]),
        ]
        let ordered = ValidationReport.ordered(paths.map { .warning("c", at: $0, "m") }, in: json).map(
            \.path.description
        )
        #expect(ordered == ["b", "b.y", "b.x[0]", "b.x[1]", "a"])
    }

    /// `json` followed by spaces up to `size` bytes.
    static func padded(_ json: String, to size: Int) -> [UInt8] {
        let bytes = Array(json.utf8)
        return bytes + [UInt8](repeating: UInt8(ascii: " "), count: size - bytes.count)
    }
}
