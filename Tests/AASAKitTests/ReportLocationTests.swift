import Testing

@testable import AASAKit

/// `ValidationReport.locating(in:)`: every finding of a validated file gets
/// the line and column of its JSON path, and the compiler-style line shows it.
@Suite("Report locations")
struct ReportLocationTests {
    static let broken = """
        {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"],
          "components": [{"/": "/a", "exclude": "yes"}]}]},
         "webcredential": {"apps": []}}
        """

    @Test func everyFindingOfAnAASAFileIsPlaced() throws {
        let bytes = Array(Self.broken.utf8)
        let report = AASAValidator().validate(bytes: bytes, file: "f").locating(in: bytes)
        #expect(!report.diagnostics.isEmpty)
        #expect(report.diagnostics.allSatisfy { $0.position != nil })
        let typeError = try #require(report.diagnostics.first { $0.code == "schema.type" })
        #expect(typeError.position == SourcePosition(line: 2, column: 41, offset: 109))
        #expect(
            typeError.description
                == "f:2:41: error: applinks.details[0].components[0].exclude: expected boolean, got string [schema.type]"
        )
        let unknownService = try #require(report.diagnostics.first { $0.code == "lint.unknown-service" })
        #expect(unknownService.position?.line == 3)
        #expect(unknownService.json["line"] == 3)
        #expect(unknownService.json["column"] == 19)
    }

    /// Two unknown services whose names differ only in NFC/NFD spelling,
    /// another between them: each finding names its own line, and they
    /// come in the order they are written.
    @Test func keysDifferingOnlyInNormalisationKeepTheirOwnLines() throws {
        let (composed, decomposed) = ("caf\u{E9}", "cafe\u{301}")
        let text = "{\"applinks\": {\"details\": []},\n \"\(composed)\": {},\n \"other\": {},\n \"\(decomposed)\": {}}"
        let bytes = Array(text.utf8)
        let report = AASAValidator().validate(bytes: bytes, file: "f").locating(in: bytes)
        let unknown = report.diagnostics.filter { $0.code == "lint.unknown-service" }
        #expect(unknown.map(\.path) == [composed, "other", decomposed].map { JSONPath([.key($0)]) })
        #expect(unknown.map { $0.position?.line } == [2, 3, 4])
    }

    @Test func aMissingRequiredMemberPointsAtItsObject() throws {
        let bytes = Array("{\"webcredentials\":\n  {}}".utf8)
        let report = AASAValidator().validate(bytes: bytes, file: "f").locating(in: bytes)
        let required = try #require(report.diagnostics.first { $0.code == "schema.required" })
        #expect(required.position == SourcePosition(line: 2, column: 3, offset: 21))
    }

    @Test func aSyntaxErrorIsPlacedWhereParsingStopped() throws {
        let bytes = Array("{\"applinks\":\n  {\"details\": [}".utf8)
        let report = AASAValidator().validate(bytes: bytes, file: "f").locating(in: bytes)
        let syntax = try #require(report.diagnostics.first)
        #expect(syntax.code == "json.syntax")
        #expect(syntax.position == SourcePosition(line: 2, column: 16, offset: 28))
        #expect(syntax.description.hasPrefix("f:2:16: error: (root): invalid JSON at line 2, column 16"))
    }

    @Test func anAssetLinksFileIsPlacedToo() throws {
        let bytes = Array("[\n  {\"relation\": \"x\"}\n]".utf8)
        let report = AssetLinksValidator().validate(bytes: bytes, file: "a").locating(in: bytes)
        #expect(!report.diagnostics.isEmpty)
        #expect(report.diagnostics.allSatisfy { ($0.position?.line ?? 0) >= 1 })
        #expect(report.diagnostics.contains { $0.position?.line == 2 })
    }

    @Test func aFileTooLargeToParseKeepsItsFindingWithoutAPosition() {
        let bytes = Array(("{\"x\":\"" + String(repeating: "a", count: AASAValidator.maximumFileSize) + "\"}").utf8)
        let report = AASAValidator().validate(bytes: bytes, file: "big").locating(in: bytes)
        #expect(report.diagnostics.map(\.code) == ["file.too-large"])
        #expect(report.diagnostics[0].position == nil)
        #expect(report.diagnostics[0].description.hasPrefix("big: (root): error: the file is"))
    }

    @Test func positionsAlreadyKnownAreKept() {
        let known = SourcePosition(line: 9, column: 9, offset: 99)
        let report = ValidationReport(
            file: "f",
            diagnostics: [Diagnostic(.warning, code: "c", path: .root, message: "m", position: known)]
        )
        #expect(report.locating(in: Array("{}".utf8)).diagnostics.map(\.position) == [known])
    }

    @Test func aCleanReportIsNotReparsed() {
        // Not JSON at all: a report without findings must come back as it is.
        let report = ValidationReport(file: "f", diagnostics: [])
        #expect(report.locating(in: Array("not json".utf8)).diagnostics.isEmpty)
    }
}
