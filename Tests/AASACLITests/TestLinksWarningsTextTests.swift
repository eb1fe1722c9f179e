import AASAKit
import Foundation
import Testing

@testable import aasa

/// The text report's warnings are rendered in chunks across the cores for a
/// long list; they must read exactly as the report's warnings, in order,
/// between the results and the summary.
@Suite("aasa test-links: the warnings of a long list in text")
struct TestLinksWarningsTextTests {
    @Test func thousandsOfWarningsFollowTheResultsInListOrder() throws {
        let urls = (0..<5_000).map { #""https://example.com/shop/\#($0)""# }
        // Every URL twice: 5,000 duplicate warnings, enough for several chunks.
        let links = #"{"deep_linkable_urls": [\#((urls + urls).joined(separator: ","))]}"#
        let scratch = try ScratchDirectory([
            "aasa/example.com/apple-app-site-association": TestLinksCommandTests.shop, "links.json": links,
        ])
        let arguments = [
            "--file", scratch.path + "/aasa/example.com/apple-app-site-association",
            "--links", scratch.path + "/links.json", "--app-id", "ABCDE12345.com.example.shop",
        ]
        let command = try TestLinksCommand.parse(arguments)
        let (output, code) = try runCapturing { try command.run(output: $0) }
        #expect(code == 0)

        let expectations = try LinkExpectations(bytes: Array(links.utf8), file: scratch.path + "/links.json")
        let report = try LinkTestRunner(
            file: AASAFile(json: try JSONParser().parse(Array(TestLinksCommandTests.shop.utf8)).value)
        )
        .run(expectations, app: .appID("ABCDE12345.com.example.shop"))
        #expect(report.warnings.count == 5_000)
        let lines = output.outText.components(separatedBy: "\n")
        // The head line and one line per result come first.
        let tail = Array(lines.dropFirst(1 + 10_000))
        #expect(tail == [""] + report.warnings.map(\.description) + ["", "10000 passed, 0 failed; 5000 warnings"])
    }

    /// A warning's line, written as bytes (its description is made the same
    /// way), in each shape: with a file and without, any severity, with a
    /// position and without.
    @Test func aWarningsLineReadsAsADiagnosticLine() {
        let warnings = [
            Diagnostic(
                .warning,
                code: "links.http-url",
                path: JSONPath.root.appending("links").appending(3),
                message: "http://caf\u{E9}.example/ is an http:// URL",
                file: "links.json"
            ),
            Diagnostic(.warning, code: "links.duplicate-url", path: .root, message: "again"),
            Diagnostic(.info, code: "c", path: JSONPath.root.appending("a b"), message: "", file: ""),
            Diagnostic(
                .error,
                code: "x.y",
                path: JSONPath.root.appending("a"),
                message: "m",
                file: "f.json",
                position: SourcePosition(line: 2, column: 3, offset: 9)
            ),
        ]
        let lines = [
            "links.json: links[3]: warning: http://caf\u{E9}.example/ is an http:// URL [links.http-url]",
            "(root): warning: again [links.duplicate-url]",
            #": ["a b"]: info:  [c]"#,
            "f.json:2:3: error: a: m [x.y]",
        ]
        for (warning, line) in zip(warnings, lines) {
            var bytes: [UInt8] = []
            warning.appendDescription(to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == line)
            #expect(warning.description == line)
        }
    }
}
