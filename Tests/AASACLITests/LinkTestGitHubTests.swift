import AASAKit
import Foundation
import Testing

@testable import aasa

/// `test-links --format github`: the annotations found through one index of
/// each links file are the ones a search per annotation finds.
@Suite("aasa test-links --format github")
struct LinkTestGitHubTests {
    static let shop = #"""
        {"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.shop"],"components":[
          {"/":"/account/*","exclude":true},{"/":"/shop/*"}]}]}}
        """#

    /// Random lists (failures, URLs listed twice, a second file, pretty and
    /// minified) annotate exactly as the search per annotation did.
    @Test(arguments: 0..<12)
    func annotationsAreThoseOfTheSearchPerAnnotation(seed: UInt64) throws {
        var random = SplitMix(seed: 0x617B_0000 + seed)
        let paths = ["/shop/1", "/shop/2", "/account/x", "/about", "/shop/a%20b", "/shop/\u{e9}", "/shop/q?x=\"y\""]
        func list() -> String {
            var lists: [[String]] = [[#""https://example.com/shop/0""#], [#""https://example.com/about""#]]
            for _ in 0..<(5 + random.below(30)) {
                lists[random.below(2)].append(
                    JSONValue.string("https://example.com" + paths[random.below(paths.count)]).serialized()
                )
            }
            // Pretty (one URL a line) or minified (the whole list on one).
            let separator = random.below(3) > 0 ? ",\n    " : ", "
            return """
                {"deep_linkable_urls": [\(lists[0].joined(separator: separator))],
                "non_deep_linkable_urls": [\(lists[1].joined(separator: separator))]}
                """
        }
        let scratch = try ScratchDirectory([
            "apple-app-site-association": Self.shop, "a.json": list(), "b.json": list(),
        ])
        let output = try Self.output(scratch, files: ["a.json", "b.json"], strict: random.below(2) == 0)
        #expect(output.github() == Self.searchPerAnnotation(output))
    }

    /// A links file with Windows line ends: each URL on its own line (the
    /// search per annotation put every URL of such a file on line 1).
    @Test func crlfLinksFilesAnnotateTheRightLine() throws {
        let links = [
            "{", #"  "deep_linkable_urls": ["#, #"    "https://example.com/about","#,
            #"    "https://example.com/shop/1""#, "  ]", "}",
        ].joined(separator: "\r\n")
        let scratch = try ScratchDirectory(["apple-app-site-association": Self.shop, "links.json": links])
        let annotations = try Self.output(scratch, files: ["links.json"], strict: false).github()
        #expect(annotations.split(separator: "\n").first?.contains(",line=3,title=unhandled") == true)
    }

    /// One quote-started span per wanted length is looked up: a URL found
    /// only inside a longer string, or split by an escape, has no line.
    @Test func linesAreThoseOfTheWrittenString() {
        let text = Array(
            #"""
            {"a": "x\"https://e.com/1\"",
             "b": ["https://e.com/2", "https://e.com/1"],
             "c": "https:\/\/e.com/3"}
            """#.utf8
        )
        let lines = LinksFileLines(text: text, urls: ["https://e.com/1", "https://e.com/2", "https://e.com/3"])
        #expect(lines.line(of: "https://e.com/1") == 2)
        #expect(lines.line(of: "https://e.com/2") == 2)
        #expect(lines.line(of: "https://e.com/3") == nil)
        #expect(lines.line(of: "https://e.com/4") == nil)
    }

    static func output(_ scratch: ScratchDirectory, files: [String], strict: Bool) throws -> LinkTestOutput {
        let site = try InputFiles.linkTestSite(scratch.at("apple-app-site-association"))
        var entries: [LinkExpectations.Entry] = []
        var texts: [String: [UInt8]] = [:]
        for file in files.map(scratch.at) {
            let bytes = try InputFiles.bytes(file, what: "links file")
            entries += try LinkExpectations(bytes: bytes, file: file).entries
            texts[file] = bytes
        }
        let report = try LinkTestRunner(sites: .everyHost(site))
            .run(LinkExpectations(entries: entries), app: .appID("ABCDE12345.com.example.shop"))
        return LinkTestOutput(
            report: report,
            linksFiles: files.map(scratch.at),
            linksTexts: texts,
            subject: "s",
            strict: strict
        )
    }

    /// The annotations as they were written before the index: the report's
    /// results searched per warning, the file's lines per annotation.
    static func searchPerAnnotation(_ output: LinkTestOutput) -> String {
        let report = output.report
        func line(of url: String, in file: String) -> Int? {
            guard let text = output.linksTexts[file].map({ String(decoding: $0, as: UTF8.self) }) else { return nil }
            let needle = JSONValue.string(url).serialized()
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(needle) {
                return index + 1
            }
            return nil
        }
        func properties(file: String?, url: String?, title: String) -> String {
            var properties: [String] = []
            if let file {
                properties.append("file=\(LinkTestOutput.escapeProperty(file))")
                if let url, let line = line(of: url, in: file) { properties.append("line=\(line)") }
            }
            properties.append("title=\(LinkTestOutput.escapeProperty(title))")
            return properties.joined(separator: ",")
        }
        var lines: [String] = []
        for result in report.failures {
            let title = "\(result.failure?.title ?? "failed"): \(result.entry.url)"
            let annotation = properties(file: result.entry.file, url: result.entry.url, title: title)
            lines.append("::error \(annotation)::\(LinkTestOutput.escapeData(result.summary))")
        }
        for warning in report.warnings {
            let url = report.results.first { $0.entry.file == warning.file && $0.entry.path == warning.path }?.entry.url
            let annotation = properties(file: warning.file, url: url, title: warning.code)
            lines.append(
                "::\(output.strict ? "error" : "warning") \(annotation)::\(LinkTestOutput.escapeData(warning.message))"
            )
        }
        lines.append(output.summaryLine)
        return lines.joined(separator: "\n")
    }
}

/// A seeded generator (SplitMix64), so a failing case can be run again;
/// the randomised tests of this module share it.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func below(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
