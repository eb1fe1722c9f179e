import AASAKit

/// Findings as GitHub Actions workflow commands, which the runner turns into
/// annotations on the lines of the pull request's files:
/// `::error file=F,line=L,col=C,title=CODE::PATH: MESSAGE`.
enum GitHubAnnotations {
    /// One workflow command per finding.
    static func lines(_ reports: [ValidationReport]) -> [String] {
        reports.flatMap { report in report.diagnostics.map(command) }
    }

    /// The command for one finding: `error`, `warning`, or `notice` for info;
    /// `line` and `col` only when the finding has a position.
    static func command(_ diagnostic: Diagnostic) -> String {
        var properties: [(String, String)] = []
        if let file = diagnostic.file { properties.append(("file", file)) }
        if let position = diagnostic.position {
            properties.append(("line", "\(position.line)"))
            properties.append(("col", "\(position.column)"))
        }
        properties.append(("title", diagnostic.code))
        let list = properties.map { "\($0.0)=\(escapeProperty($0.1))" }.joined(separator: ",")
        return "::\(level(diagnostic.severity)) \(list)::\(escapeData("\(diagnostic.path): \(diagnostic.message)"))"
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "notice"
        }
    }

    /// The runner's escaping for a command's message: `%`, CR and LF, or a
    /// message with a newline would end the command early.
    static func escapeData(_ text: String) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// The escaping for a property value: also `:` and `,`, which would end
    /// the value (a file named `a,b` would otherwise annotate a file `a`).
    static func escapeProperty(_ text: String) -> String {
        var escaped = ""
        for character in escapeData(text).unicodeScalars {
            switch character {
            case ":": escaped += "%3A"
            case ",": escaped += "%2C"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
