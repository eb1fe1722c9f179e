import Logging

/// The log lines of one load, written from what changed since the previous
/// one, so each line is true when it is read: a problem is "cleared" only
/// when its file has no problem any more (a file rejected again for another
/// reason is a new rejection, not a cleared one), and nothing is repeated
/// on every poll.
struct ReloadLog {
    let logger: Logger

    func record(
        issues: [LoadIssue],
        warnings: [LoadIssue],
        missing: [String],
        before: SiteStore.Status,
        missingBefore: Set<String>,
        isServed: (String) -> Bool
    ) {
        let known = Set(before.issues)
        for issue in issues where !known.contains(issue) {
            logger.error(
                "\(Self.message(issue.code))",
                metadata: [
                    "aasa.host": "\(issue.host ?? "-")", "aasa.path": "\(issue.path)",
                    "reload.error": "\(issue.message)",
                ]
            )
        }
        let stillAffected = Set(issues.map(\.path))
        var cleared = Set<String>()
        for issue in before.issues where !stillAffected.contains(issue.path) && cleared.insert(issue.path).inserted {
            logger.notice(
                "problem cleared",
                metadata: ["aasa.host": "\(issue.host ?? "-")", "aasa.path": "\(issue.path)"]
            )
        }
        let knownWarnings = Set(before.warnings)
        for warning in warnings where !knownWarnings.contains(warning) {
            logger.warning(
                "served with a warning",
                metadata: [
                    "aasa.host": "\(warning.host ?? "-")", "aasa.path": "\(warning.path)",
                    "lint": "\(warning.message)",
                ]
            )
        }
        for path in missing where !missingBefore.contains(path) {
            logger.notice(
                "missing; the last good version stays served until the next load finds it still missing",
                metadata: ["aasa.path": "\(path)"]
            )
        }
        for path in missingBefore.subtracting(missing).sorted() {
            if isServed(path) {
                logger.notice("back after missing for an instant", metadata: ["aasa.path": "\(path)"])
            } else {
                logger.notice("removed: still missing at the next load", metadata: ["aasa.path": "\(path)"])
            }
        }
    }

    /// The log message for an issue, by what it is.
    static func message(_ code: LoadIssue.Code) -> String {
        switch code {
        case .invalidFile: "file rejected"
        case .unreadable: "cannot read"
        case .certificate: "certificate rejected"
        case .notAHostDirectory, .noServedFile, .aliasTargetNotServed: "host not served"
        case .badConfiguredAlias, .defaultHostNotServed: "configuration not applied"
        case .servedWithWarning: "served with a warning"
        }
    }
}
