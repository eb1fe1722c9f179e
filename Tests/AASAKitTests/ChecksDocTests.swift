import Foundation
import Testing

@testable import AASAKit

/// Keeps docs/CHECKS.md true: every test it cites exists, every row cites
/// one, and every finding code and check id the sources emit has a row.
@Suite struct ChecksDocTests {
    static let document = "docs/CHECKS.md"

    /// The rows of every table: the first cell's code spans and the whole row.
    static func rows() throws -> [(codes: [String], row: String)] {
        let text = try SemanticsDocCitationTests.read(document)
        return text.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| check |") }.map { line in
            let first = line.split(separator: "|").first ?? ""
            let spans = first.split(separator: "`", omittingEmptySubsequences: false)
            let codes = stride(from: 1, to: spans.count, by: 2).map { String(spans[$0]) }
            return (codes, String(line))
        }
    }

    @Test func everyCitedTestExistsAndEveryRowCitesOne() throws {
        let rows = try Self.rows()
        #expect(rows.count > 80, "\(rows.count) rows")
        let index = try TestSourceIndex.load(repository: SemanticsDocCitationTests.repository)
        var problems: [String] = []
        for (_, row) in rows {
            let cell = row.split(separator: "|").last.map(String.init) ?? ""
            let citations = DocCitation.all(in: cell)
            if citations.isEmpty { problems.append("no test cited: \(row)") }
            for citation in citations {
                if let problem = index.problem(with: citation) { problems.append("\(citation): \(problem)") }
            }
        }
        #expect(problems == [])
    }

    /// Finding codes are string literals in the sources (`"lint.…"`,
    /// `"links.…"`, …); file names and resource names are not codes.
    @Test func everyEmittedCodeHasARow() throws {
        let documented = Set(try Self.rows().flatMap(\.codes))
        let pattern = /"((?:lint|links|json|file|assetlinks|config)\.[a-z][a-z-]*)"/
        // File and resource names (`forResource: "assetlinks.schema"`).
        let notCodes: Set = ["assetlinks.json", "assetlinks.schema", "links.schema"]
        var emitted: Set<String> = []
        for (path, text) in Self.sources() where !path.contains("/Configuration/") || path.hasSuffix("Error.swift") {
            for match in text.matches(of: pattern) { emitted.insert(String(match.1)) }
        }
        emitted.subtract(notCodes)
        // Check ids of `aasa check` are literals too: `"connect"`, `"tls.trusted"`, …
        let checkIDs = /(?:add\(\s*|CheckResult\(|static let id = )"([a-z][a-z.-]*)"/
        let checkDirectories = ["AASAChecks/Host/", "AASAChecks/AssetLinks/"]
        for (path, text) in Self.sources() where checkDirectories.contains(where: path.contains) {
            for match in text.matches(of: checkIDs) { emitted.insert(String(match.1)) }
        }
        emitted.formUnion(LinkTestFailure.allCases.map(\.rawValue))
        emitted.formUnion(["in-sync", "differs", "cdn-error", "origin-error", "file-error"])
        #expect(emitted.count > 70, "\(emitted.count) codes")
        #expect(emitted.subtracting(documented).sorted() == [])
    }

    /// The checker itself: a code missing from the page and a row without a
    /// test would be caught.
    @Test func theRowParserReadsCodesAndCitations() throws {
        let rows = try Self.rows()
        let lints = try #require(rows.first { $0.codes == ["lint.undefined-variable"] })
        #expect(DocCitation.all(in: lints.row).first?.suite == "VariableLintTests")
        #expect(!rows.contains { $0.codes.contains("lint.not-a-code") })
    }

    static func sources() -> [(String, String)] {
        let root = SemanticsDocCitationTests.repository.appending(path: "Sources")
        let paths = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return paths.filter { $0.hasSuffix(".swift") }.compactMap { path in
            (try? String(contentsOf: root.appending(path: path), encoding: .utf8)).map { (path, $0) }
        }
    }
}
