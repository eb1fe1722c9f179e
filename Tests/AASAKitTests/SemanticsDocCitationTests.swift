import Foundation
import Testing

/// Keeps docs/SEMANTICS.md honest: every test it cites exists, every rule
/// cites one, its links lead somewhere, and no project file points readers
/// at notes a clone of the repository does not have.
@Suite struct SemanticsDocCitationTests {
    static let repository = URL(filePath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: repository.appending(path: path), encoding: .utf8)
    }

    @Test func everyCitedTestExists() throws {
        let citations = DocCitation.all(in: try Self.read("docs/SEMANTICS.md"))
        // A floor, so a parser that finds nothing cannot pass.
        #expect(citations.count > 100, "\(citations.count) citations")
        let index = try TestSourceIndex.load(repository: Self.repository)
        let problems = Set(citations).compactMap { citation in
            index.problem(with: citation).map { "\(citation): \($0)" }
        }
        #expect(problems.sorted() == [])
    }

    /// Each rule is a `###` section and names at least one test.
    @Test func everyRuleCitesATest() throws {
        let text = try Self.read("docs/SEMANTICS.md")
        let sections = text.split(separator: "\n### ").dropFirst()
        #expect(sections.count > 30, "\(sections.count) rules")
        let uncited = sections.compactMap { section -> String? in
            // A section ends where the next `##` heading starts.
            let body = section.components(separatedBy: "\n## ").first ?? String(section)
            return DocCitation.all(in: body).isEmpty ? String(section.prefix { $0 != "\n" }) : nil
        }
        #expect(uncited == [])
    }

    @Test func linksLeadSomewhere() throws {
        let document = "docs/SEMANTICS.md"
        let text = try Self.read(document)
        let folder = Self.repository.appending(path: "docs")
        var broken: [String] = []
        for target in MarkdownLinks.targets(in: text) where !target.hasPrefix("https://") {
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let file = parts[0].isEmpty ? folder.appending(path: "SEMANTICS.md") : folder.appending(path: parts[0])
            guard let linked = try? String(contentsOf: file, encoding: .utf8) else {
                broken.append("\(target): no such file")
                continue
            }
            if parts.count == 2, !MarkdownLinks.anchors(in: linked).contains(String(parts[1])) {
                broken.append("\(target): no such heading")
            }
        }
        #expect(broken == [], "in \(document)")
    }

    /// The checker itself: a renamed test, a deleted row, a test of another
    /// suite in the same file and a prose code span are told apart.
    @Test func aDeadCitationIsCaught() {
        let source = """
            @Suite struct FirstTests {
                static let cases = [Case("kept row")]
                @Test func kept() {}
            }

            @Suite("Second")
            struct SecondTests {
                @Test func other() {}
            }

            extension FirstTests {
                @Test func added() {}
            }
            """
        let index = TestSourceIndex(sources: [source])
        #expect(index.problem(with: DocCitation(suite: "FirstTests", test: "kept")) == nil)
        #expect(index.problem(with: DocCitation(suite: "FirstTests", test: "added")) == nil)
        #expect(index.problem(with: DocCitation(suite: "FirstTests", test: "kept", row: "kept row")) == nil)
        #expect(index.problem(with: DocCitation(suite: "FirstTests", test: "renamed")) != nil)
        #expect(index.problem(with: DocCitation(suite: "FirstTests", test: "other")) != nil)
        #expect(index.problem(with: DocCitation(suite: "FirstTests", test: "kept", row: "gone")) != nil)
        #expect(index.problem(with: DocCitation(suite: "MissingTests", test: "kept")) != nil)
        #expect(index.problem(with: DocCitation(suite: "First", test: "kept")) != nil)

        let markdown = """
            `FirstTests.kept`, `lint.undefined-variable`, `/buy/*`, `SecondTests.other["a row"]`
            ```
            `ThirdTests.fenced`
            ```
            """
        #expect(
            DocCitation.all(in: markdown) == [
                DocCitation(suite: "FirstTests", test: "kept"),
                DocCitation(suite: "SecondTests", test: "other", row: "a row"),
            ]
        )
        #expect(
            MarkdownLinks.slug("### 3.1 Path `/` normalisation (paths only)".dropFirst(4))
                == "31-path--normalisation-paths-only"
        )
    }

    /// Project files speak of the project's own documents: a clone has none
    /// of the team's internal notes.
    @Test func projectFilesCiteOnlyTheProjectsOwnDocuments() throws {
        let outside = ["../" + "shared", "AASA-" + "SEMANTICS", "ASSETLINKS-" + "RULES"]
        var offenders: [String] = []
        for (path, text) in Self.projectFiles() {
            for reference in outside where text.contains(reference) {
                offenders.append("\(path): \(reference)")
            }
        }
        #expect(offenders == [])
    }

    /// Comments and documents cite "SEMANTICS.md §3.2": every such section
    /// number must still be a heading of the document.
    @Test func citedSectionNumbersExist() throws {
        let headings = try Self.read("docs/SEMANTICS.md").split(separator: "\n").compactMap { line -> Substring? in
            guard line.hasPrefix("## ") || line.hasPrefix("### ") else { return nil }
            let number = line.drop { $0 == "#" }.drop { $0 == " " }.prefix { $0.isNumber || $0 == "." }
            return number.hasSuffix(".") ? number.dropLast() : number
        }
        let sections = Set(headings.filter { !$0.isEmpty })
        #expect(sections.isSuperset(of: ["1", "3.1", "3.5", "6.3", "7.8"]))
        var missing: [String] = []
        var citing = 0
        for (path, text) in Self.projectFiles() {
            for line in text.split(separator: "\n") where line.contains("SEMANTICS.md") {
                for mark in line.split(separator: "§").dropFirst() {
                    let number = mark.prefix { $0.isNumber || $0 == "." }
                    let section = number.hasSuffix(".") ? number.dropLast() : number
                    citing += 1
                    if !sections.contains(section) { missing.append("\(path): §\(section)") }
                }
            }
        }
        #expect(citing > 20, "\(citing) section references")
        #expect(missing == [])
    }

    /// The text files of the repository a reader or a build sees, by path
    /// relative to the repository (test fixtures excepted).
    static func projectFiles() -> [(path: String, text: String)] {
        let roots = [
            "README.md", "BENCHMARKS.md", "docs", "config", "deploy", "aasa", "Benchmarks", "Sources", "Tests",
        ]
        let kinds: Set<String> = ["md", "swift", "sh", "yml", "yaml", "json"]
        var found: [(path: String, text: String)] = []
        for root in roots {
            let url = repository.appending(path: root)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
            let files =
                isDirectory.boolValue
                ? FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil, options: .skipsHiddenFiles)?
                    .compactMap { $0 as? URL } ?? []
                : [url]
            for file in files where kinds.contains(file.pathExtension) && !file.path.contains("/Fixtures/") {
                guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                found.append((String(file.path.dropFirst(repository.path.count + 1)), text))
            }
        }
        return found
    }
}
