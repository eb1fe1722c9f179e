/// The links and headings of a Markdown text, enough to check that a
/// document's relative links and `#anchors` lead somewhere.
enum MarkdownLinks {
    /// The target of every inline link `[text](target)`, fenced code skipped.
    static func targets(in markdown: String) -> [String] {
        var targets: [String] = []
        var fenced = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingPrefix(while: { $0 == " " }).hasPrefix("```") {
                fenced.toggle()
                continue
            }
            guard !fenced else { continue }
            var rest = line[...]
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                targets.append(String(after[..<close]))
                rest = after[close...]
            }
        }
        return targets
    }

    /// The anchors GitHub gives the headings: lowercased, spaces as `-`,
    /// every character other than letters, digits, `-` and `_` dropped.
    static func anchors(in markdown: String) -> Set<String> {
        var anchors: Set<String> = []
        var fenced = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle() }
            guard !fenced, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.drop { $0 == " " }
            anchors.insert(slug(title))
        }
        return anchors
    }

    static func slug(_ title: Substring) -> String {
        var slug = ""
        for character in title.lowercased() {
            if character == " " {
                slug.append("-")
            } else if character.isLetter || character.isNumber || character == "-" || character == "_" {
                slug.append(character)
            }
        }
        return slug
    }
}
