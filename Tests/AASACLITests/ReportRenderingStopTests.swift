import AASAKit
import Foundation
import Testing

@testable import aasa

/// After the first failed write the report is not rendered on: the rest
/// would be dropped anyway, and a 100,000-URL report took as long to
/// render for nothing as to write.
@Suite("Report rendering stops at a failed write")
struct ReportRenderingStopTests {
    /// A report of `count` passing results, several windows long.
    static func output(count: Int) throws -> LinkTestOutput {
        let file = AASAFile(json: [
            "applinks": ["details": [["appIDs": ["ABCDE12345.com.example.app"], "components": [["/": "/buy/*"]]]]]
        ])
        let site = LinkTestSites.Site(name: "aasa", content: .file(file))
        let entries = (0..<count).map {
            LinkExpectations.Entry(url: "https://example.com/buy/\($0)", expectation: .matched)
        }
        let report = try LinkTestRunner(sites: .everyHost(site))
            .run(LinkExpectations(entries: entries), app: .appID("ABCDE12345.com.example.app"))
        return LinkTestOutput(report: report, linksFiles: ["links.json"], linksTexts: [:], subject: "s", strict: false)
    }

    @Test(arguments: [LinkTestFormat.json, .text])
    func theFirstRefusedPartIsTheLast(format: LinkTestFormat) throws {
        let output = try Self.output(count: LinkTestOutput.window * 2 + 5)
        var all = 0
        output.render(format) { _ in
            all += 1
            return true
        }
        // Not vacuous: the report has a part per chunk of several windows.
        #expect(all > 4)
        for refusedAt in [1, 2, all - 1] {
            var parts = 0
            output.render(format) { _ in
                parts += 1
                return parts < refusedAt
            }
            #expect(parts == refusedAt)
        }
    }

    /// Window after window, each written into the buffers of the one
    /// before: the results come out whole and in order, as rendered at once.
    @Test(arguments: [LinkTestFormat.json, .text])
    func theWindowsReadAsTheResultsRenderedAtOnce(format: LinkTestFormat) throws {
        let output = try Self.output(count: LinkTestOutput.window * 3 + 7)
        var written: [UInt8] = []
        output.render(format) { part in
            written += part
            return true
        }
        let report = output.report
        let atOnce =
            format == .text
            ? report.textLines(appColumn: false).joined()
            : report.resultLines(level: 2, rules: LinkTestRuleTable(report)).joined()
        #expect(atOnce.count > LinkTestOutput.window * 3 * 20)
        #expect(Data(written).range(of: Data(atOnce)) != nil)
    }

    /// The output of the tool says to stop once its stdout has failed.
    @Test func aFailedStdoutStopsTheRendering() throws {
        let scratch = try ScratchDirectory(["read-only": ""])
        let handle = try ReportWriteFailureTests.open("read-only", in: scratch)
        defer { try? handle.close() }
        let writer = ReportWriter(descriptor: handle.fileDescriptor)
        let output = CommandOutput(writer: writer)
        var answers: [Bool] = []
        try output.report(
            streaming: .success(
                (
                    render: { write in
                        for _ in 0..<3 { answers.append(write(Array("part".utf8))) }
                    },
                    exitCode: { 0 }
                )
            )
        )
        #expect(answers == [false, false, false])
        #expect(writer.hasFailed)
        #expect(writer.finish()?.code == EBADF)
    }
}
