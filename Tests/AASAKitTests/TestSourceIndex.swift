import Foundation

/// The Swift sources under `Tests/`, searched for the suites, tests and table
/// rows that a document cites, so a renamed or deleted test cannot leave a
/// dead citation behind.
struct TestSourceIndex: Sendable {
    /// Each source file's text.
    var sources: [String]

    init(sources: [String]) {
        self.sources = sources
    }

    /// Every `.swift` file under `<repository>/Tests`.
    static func load(repository: URL) throws -> TestSourceIndex {
        let tests = repository.appending(path: "Tests")
        guard let walk = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil) else {
            return TestSourceIndex(sources: [])
        }
        var sources: [String] = []
        for case let url as URL in walk where url.pathExtension == "swift" {
            sources.append(try String(contentsOf: url, encoding: .utf8))
        }
        return TestSourceIndex(sources: sources)
    }

    /// Why `citation` names nothing that exists, or `nil` when it resolves:
    /// the suite is declared, its body (or an extension's) declares the test,
    /// and the row label is written there as a string literal.
    func problem(with citation: DocCitation) -> String? {
        let bodies = sources.filter { $0.contains(citation.suite) }.flatMap { Self.bodies(of: citation.suite, in: $0) }
        guard !bodies.isEmpty else {
            return "no suite \(citation.suite) under Tests/"
        }
        guard bodies.contains(where: { $0.contains("func \(citation.test)(") }) else {
            return "\(citation.suite) has no test \(citation.test)"
        }
        if let row = citation.row, !bodies.contains(where: { $0.contains("\"\(row)\"") }) {
            return "\(citation.suite) has no table row \"\(row)\""
        }
        return nil
    }

    /// The bodies of `struct <name>` and `extension <name>` in `source`: the
    /// lines after the declaration up to the closing brace written at the
    /// declaration's indentation (swift-format's layout), so a test of
    /// another suite in the same file does not count.
    static func bodies(of name: String, in source: String) -> [String] {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        var bodies: [String] = []
        for (number, line) in lines.enumerated() where declares(name, line) {
            let indentation = line.prefix { $0 == " " }
            let closing = indentation + "}"
            let end = lines[(number + 1)...].firstIndex { $0 == closing } ?? lines.endIndex
            bodies.append(lines[(number + 1)..<end].joined(separator: "\n"))
        }
        return bodies
    }

    /// Whether `line` opens `struct <name>` or `extension <name>`.
    private static func declares(_ name: String, _ line: Substring) -> Bool {
        for keyword in ["struct ", "extension "] {
            var rest = line[...]
            while let range = rest.range(of: keyword + name) {
                let before = line[..<range.lowerBound].last
                let after = rest[range.upperBound...].first
                let startsWord = before == nil || before == " " || before == ")"
                let endsWord = after == nil || after == " " || after == "{" || after == ":"
                if startsWord && endsWord { return true }
                rest = rest[range.upperBound...]
            }
        }
        return false
    }
}
