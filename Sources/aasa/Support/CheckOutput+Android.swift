import AASAChecks

extension CheckOutput {
    /// The lines under a host's checks that say what its `assetlinks.json`
    /// delegates and what each include contributed:
    ///
    ///     android  handle_all_urls  com.example.app  14:6D:…:C5
    ///     include  https://example.com/shared.json  contributed 1 statement (com.example.app)
    static func androidLines(_ report: AndroidReport) -> [String] {
        var lines: [String] = []
        let width = report.delegations.map(\.packageName.count).max() ?? 0
        for delegation in report.delegations {
            let from = delegation.source == report.url ? "" : "  (from \(delegation.source))"
            let package = delegation.packageName.padding(toLength: width, withPad: " ", startingAt: 0)
            let head = "    android  \(delegation.relation)  \(package)  "
            let fingerprints = delegation.fingerprints.isEmpty ? ["(no certificate)"] : delegation.fingerprints
            for (index, fingerprint) in fingerprints.enumerated() {
                let lead = index == 0 ? head : String(repeating: " ", count: head.count)
                lines.append(lead + fingerprint + (index == 0 ? from : ""))
            }
        }
        for include in report.includes {
            lines.append("    include  \(include.url)  \(include.summary)")
            for diagnostic in include.report?.diagnostics ?? [] where diagnostic.severity > .info {
                let position = diagnostic.position.map { ":\($0.line):\($0.column)" } ?? ""
                lines.append(
                    "      \(include.url)\(position): \(diagnostic.severity): \(diagnostic.path): \(diagnostic.message) [\(diagnostic.code)]"
                )
            }
        }
        return lines
    }
}
