/// A test named in a document: the code span `` `Suite.test` `` or, for one
/// row of a table test, `` `Suite.test["row label"]` ``.
///
/// Only spans shaped like that count: the suite is a type name ending in
/// `Tests`, the test a lower-camel-case function name. Other code spans
/// (`lint.undefined-variable`, `/buy/*`) are prose and are left alone.
struct DocCitation: Hashable, Sendable, CustomStringConvertible {
    var suite: String
    var test: String
    var row: String?

    var description: String {
        row.map { "\(suite).\(test)[\"\($0)\"]" } ?? "\(suite).\(test)"
    }

    /// Every citation in a Markdown text, in order, fenced code blocks
    /// skipped (their backticks would throw the pairing of spans off).
    static func all(in markdown: String) -> [DocCitation] {
        var prose: [Substring] = []
        var fenced = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingPrefix(while: { $0 == " " }).hasPrefix("```") {
                fenced.toggle()
            } else if !fenced {
                prose.append(line)
            }
        }
        let spans = prose.joined(separator: "\n").split(separator: "`", omittingEmptySubsequences: false)
        // Odd pieces are inside backticks.
        return stride(from: 1, to: spans.count, by: 2).compactMap { DocCitation(span: spans[$0]) }
    }

    /// Parses one code span; `nil` when it is not a citation.
    init?(span: Substring) {
        var head = span
        var row: String?
        if let bracket = span.firstIndex(of: "[") {
            let tail = span[bracket...]
            guard tail.hasPrefix("[\""), tail.hasSuffix("\"]"), tail.count > 4 else { return nil }
            row = String(tail.dropFirst(2).dropLast(2))
            head = span[..<bracket]
        }
        let names = head.split(separator: ".", omittingEmptySubsequences: false)
        guard names.count == 2, let suite = names.first, let test = names.last,
            suite.hasSuffix("Tests"), suite.first?.isUppercase == true, test.first?.isLowercase == true,
            (suite + test).allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { return nil }
        self.suite = String(suite)
        self.test = String(test)
        self.row = row
    }

    init(suite: String, test: String, row: String? = nil) {
        self.suite = suite
        self.test = test
        self.row = row
    }
}
