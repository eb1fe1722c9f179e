import AASAChecks
import AASAKit

/// Renders `aasa check` reports: each host check by check, then a summary
/// table.
struct CheckOutput {
    var reports: [HostReport]
    /// `--strict`: a warning fails the run like a failure.
    var strict = false

    /// Whether a report makes the run fail.
    func failed(_ report: HostReport) -> Bool {
        report.status == .fail || (strict && report.status == .warn)
    }

    /// 1 when any host failed (or warned, with `--strict`), else 0.
    var exitCode: Int32 { reports.contains(where: failed) ? 1 : 0 }

    func text() -> String {
        var lines: [String] = []
        for report in reports {
            let via = report.connectedTo.map { " via \($0)" } ?? ""
            lines.append("\(report.host)  \(Self.label(report.status))  \(report.url)\(via)")
            let width = report.checks.map(\.id.count).max() ?? 0
            for check in report.checks {
                let id = check.id.padding(toLength: width, withPad: " ", startingAt: 0)
                lines.append("  \(Self.label(check.status))  \(id)  \(check.message)")
            }
            lines.append("")
        }
        lines.append(contentsOf: table())
        let warned = reports.count { $0.status == .warn }
        if strict && warned > 0 {
            lines.append(
                "--strict: \(warned) host\(warned == 1 ? "" : "s") with warnings count\(warned == 1 ? "s" : "") as failed"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// `HOST  RESULT  PASS  WARN  FAIL  SKIP`, one row per host.
    func table() -> [String] {
        let header = ["HOST", "RESULT", "PASS", "WARN", "FAIL", "SKIP"]
        let rows = reports.map { report in
            [report.host, report.status.rawValue]
                + [CheckStatus.pass, .warn, .fail, .skip].map { "\(report.count($0))" }
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { column, cell in
                column < 2
                    ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
    }

    func json() -> String {
        let object: JSONValue = [
            "hosts": .array(reports.map(\.json)),
            "failed": .number(Double(reports.count(where: failed))),
            "strict": .bool(strict),
        ]
        return object.serialized(pretty: true)
    }

    static func label(_ status: CheckStatus) -> String {
        switch status {
        case .pass: "PASS"
        case .warn: "WARN"
        case .fail: "FAIL"
        case .skip: "SKIP"
        }
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
