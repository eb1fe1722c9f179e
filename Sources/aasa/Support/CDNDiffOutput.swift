import AASAChecks
import AASAKit

/// Renders `aasa cdn-diff` comparisons.
struct CDNDiffOutput {
    var comparisons: [CDNComparison]
    /// `--strict`: warnings about the compared file fail the run too.
    var strict = false

    /// Whether a comparison makes the run fail.
    func failed(_ comparison: CDNComparison) -> Bool {
        comparison.status == .fail || (strict && comparison.status == .warn)
    }

    /// 1 when any domain is not in sync or its file has errors (or
    /// warnings, with `--strict`), else 0. Bad input is 2, before any fetch.
    var exitCode: Int32 { comparisons.contains(where: failed) ? 1 : 0 }

    func text() -> String {
        var lines: [String] = []
        for comparison in comparisons {
            lines.append(contentsOf: text(comparison))
            lines.append("")
        }
        let counts = ["in-sync", "differs", "cdn-error", "origin-error", "file-error"].map { name in
            (name, comparisons.count { $0.result == name })
        }
        var summary = counts.filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }.joined(separator: ", ")
        let invalid = comparisons.count { $0.referenceFindings.contains { $0.severity == .error } }
        if invalid > 0 { summary += "; \(invalid) compared file\(invalid == 1 ? "" : "s") with errors" }
        if strict, comparisons.contains(where: { $0.status == .warn }) { summary += " (--strict: warnings fail)" }
        lines.append(summary)
        return lines.joined(separator: "\n")
    }

    private func text(_ comparison: CDNComparison) -> [String] {
        let domain = comparison.domain
        let against = comparison.reference.kind == "file" ? "the file" : "the origin"
        var lines: [String] = []
        switch comparison.outcome {
        case .inSync:
            lines.append("\(domain): in sync (Apple's CDN serves \(against))")
        case .differs(let diff):
            let count = diff.changes.count
            lines.append(
                "\(domain): differs (\(count) change\(count == 1 ? "" : "s"), \(comparison.reference.kind) → CDN)"
            )
            lines.append(contentsOf: diff.changes.map { "  \($0)" })
        case .cdnError(let failure):
            lines.append("\(domain): CDN error\(failure.statusLine.map { " (\($0))" } ?? "")")
            lines.append("  \(failure.explanation)")
        case .referenceError(let message):
            lines.append("\(domain): \(comparison.reference.kind) error")
            lines.append("  \(message)")
            if let failure = comparison.cdnFailure {
                lines.append("  CDN: \(failure.statusLine.map { "\($0): " } ?? "")\(failure.explanation)")
            }
        }
        lines.append(contentsOf: findings(comparison))
        if let freshness = comparison.freshness {
            lines.append("  CDN \(freshness.summary)")
        }
        let headers = comparison.cdnFailure?.headers ?? comparison.cdnHeaders
        lines.append(contentsOf: headers.map { "  \($0.name): \($0.value)" })
        lines.append("  \(comparison.reference.kind): \(comparison.reference.location)")
        lines.append("  CDN:    \(comparison.cdnURL)")
        return lines
    }

    /// The compared file's own errors and warnings, first few of each.
    private func findings(_ comparison: CDNComparison) -> [String] {
        let findings = comparison.referenceFindings
        guard !findings.isEmpty else { return [] }
        let errors = findings.count { $0.severity == .error }
        let warnings = findings.count - errors
        let counts = [(errors, "error"), (warnings, "warning")].filter { $0.0 > 0 }
            .map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }.joined(separator: ", ")
        var lines = ["  the \(comparison.reference.kind) copy itself has \(counts):"]
        lines += findings.prefix(5).map { "    \($0.severity.rawValue): \($0.path): \($0.message) [\($0.code)]" }
        if findings.count > 5 { lines.append("    … \(findings.count - 5) more (aasa validate shows all)") }
        return lines
    }

    func json() -> String {
        let object: JSONValue = [
            "domains": .array(comparisons.map(\.json)),
            "strict": .bool(strict),
            "exitCode": .number(Double(exitCode)),
        ]
        return object.serialized(pretty: true)
    }
}
