import AASAChecks
import AASAKit

/// Renders `aasa cdn-diff` comparisons.
struct CDNDiffOutput {
    var comparisons: [CDNComparison]

    /// The worst outcome wins: 3 origin error, 2 CDN error, 1 differs, 0 in sync.
    var exitCode: Int32 { comparisons.map(\.outcome.exitCode).max() ?? 0 }

    func text() -> String {
        var lines: [String] = []
        for comparison in comparisons {
            lines.append(contentsOf: text(comparison))
            lines.append("")
        }
        let counts = ["in-sync", "differs", "cdn-error", "origin-error"].map { name in
            (name, comparisons.count { $0.outcome.name == name })
        }
        lines.append(counts.filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }.joined(separator: ", "))
        return lines.joined(separator: "\n")
    }

    private func text(_ comparison: CDNComparison) -> [String] {
        var lines: [String] = []
        switch comparison.outcome {
        case .inSync:
            lines.append("\(comparison.domain): in sync")
        case .differs(let diff):
            let count = diff.changes.count
            lines.append("\(comparison.domain): differs (\(count) change\(count == 1 ? "" : "s"), origin → CDN)")
            lines.append(contentsOf: diff.changes.map { "  \($0)" })
        case .cdnError(let failure):
            lines.append("\(comparison.domain): CDN error\(failure.statusLine.map { " (\($0))" } ?? "")")
            lines.append("  \(failure.explanation)")
        case .originError(let message):
            lines.append("\(comparison.domain): origin error")
            lines.append("  \(message)")
            if let failure = comparison.cdnFailure {
                lines.append("  CDN: \(failure.statusLine.map { "\($0): " } ?? "")\(failure.explanation)")
            }
        }
        let headers = comparison.cdnFailure?.headers ?? comparison.cdnHeaders
        lines.append(contentsOf: headers.map { "  \($0.name): \($0.value)" })
        lines.append("  origin: \(comparison.originURL)")
        lines.append("  CDN:    \(comparison.cdnURL)")
        return lines
    }

    func json() -> String {
        let object: JSONValue = [
            "domains": .array(comparisons.map(\.json)),
            "exitCode": .number(Double(exitCode)),
        ]
        return object.serialized(pretty: true)
    }
}
