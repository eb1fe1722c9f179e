import AASAChecks
import AASAKit

/// Renders `aasa check` reports: each host check by check, then a summary
/// table.
struct CheckOutput {
    var reports: [HostReport]

    func text() -> String {
        var lines: [String] = []
        for report in reports {
            lines.append("\(report.host)  \(Self.label(report.status))  \(report.url)")
            let width = report.checks.map(\.id.count).max() ?? 0
            for check in report.checks {
                let id = check.id.padding(toLength: width, withPad: " ", startingAt: 0)
                lines.append("  \(Self.label(check.status))  \(id)  \(check.message)")
            }
            lines.append("")
        }
        lines.append(contentsOf: table())
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
        let failed = reports.count { $0.status == .fail }
        let object: JSONValue = [
            "hosts": .array(reports.map(\.json)),
            "failed": .number(Double(failed)),
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
