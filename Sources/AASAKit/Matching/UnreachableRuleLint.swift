/// Finds rules that can never decide anything because an earlier rule of
/// the same app entry already matches every URL they match
/// (docs/SEMANTICS.md §6.3).
///
/// - `lint.unreachable-exclude` (error): an exclusion shadowed by an
///   earlier include. The author meant to block those URLs; the system opens
///   the app for them instead.
/// - `lint.unreachable-rule` (warning): any other shadowed rule.
///
/// Only entries that decide for at least one app are checked (an entry
/// whose every app ID was listed earlier is dead as a whole, which is
/// another lint's finding). Coverage is conservative (``RuleCoverage``):
/// a rule shadowed only by several earlier rules together is not reported.
public enum UnreachableRuleLint {
    /// The shadowed rules of `file`, in file order.
    public static func lint(_ file: AASAFile) -> [Diagnostic] {
        guard let appLinks = file.appLinks else { return [] }
        let coverage = RuleCoverage(file: file)
        var claimed = Set<String>()
        var diagnostics: [Diagnostic] = []
        for detail in appLinks.details {
            let newIDs = detail.appIDs.filter { claimed.insert($0).inserted }
            guard !newIDs.isEmpty else { continue }
            let shapes = detail.rules.map(coverage.shape(of:))
            for (index, later) in detail.rules.enumerated() {
                guard let earlierIndex = shapes[..<index].firstIndex(where: { coverage.covers($0, shapes[index]) })
                else {
                    continue
                }
                diagnostics.append(finding(later: later, earlier: detail.rules[earlierIndex]))
            }
        }
        return diagnostics
    }

    private static func finding(later: Rule, earlier: Rule) -> Diagnostic {
        switch (earlier.isExclusion, later.isExclusion) {
        case (false, true):
            return .error(
                "lint.unreachable-exclude",
                at: later.path,
                "This exclusion never applies: the earlier rule at \(earlier.path) matches every URL it matches, "
                    + "so the system opens the app for these URLs instead of blocking them. "
                    + "Move the exclusion before \(earlier.path)."
            )
        case (true, _):
            return .warning(
                "lint.unreachable-rule",
                at: later.path,
                "This rule never decides anything: the earlier exclusion at \(earlier.path) "
                    + "already blocks every URL it matches."
            )
        case (false, false):
            return .warning(
                "lint.unreachable-rule",
                at: later.path,
                "This rule never decides anything: the earlier rule at \(earlier.path) "
                    + "already opens the app for every URL it matches."
            )
        }
    }
}
