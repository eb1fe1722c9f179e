/// All results of a run, and what deserves a second look without failing
/// it unless the run is strict.
public struct LinkTestReport: Sendable {
    public var results: [LinkTestResult]
    /// Warnings (`links.*` codes): entries that test nothing, URLs listed
    /// twice, entries skipped for another host, a bundle ID naming several
    /// apps, rules no URL exercises. Each names its file and JSON path.
    public var warnings: [Diagnostic]
    /// Entries not tested because the run is restricted to one host.
    public var skipped: [LinkExpectations.Entry]
    /// The rules no URL of the list decided; `nil` when coverage was not asked for.
    public var uncoveredRules: [UncoveredRule]?

    public init(
        results: [LinkTestResult],
        warnings: [Diagnostic] = [],
        skipped: [LinkExpectations.Entry] = [],
        uncoveredRules: [UncoveredRule]? = nil
    ) {
        self.results = results
        self.warnings = warnings
        self.skipped = skipped
        self.uncoveredRules = uncoveredRules
    }

    public var passedCount: Int {
        // By index: reading one field, not copying 100,000 results.
        var count = 0
        for index in results.indices where results[index].failure == nil { count += 1 }
        return count
    }
    public var failedCount: Int { results.count - passedCount }
    public var failures: [LinkTestResult] { results.filter { !$0.passed } }

    /// Whether the run succeeds: nothing failed and, when `strict`, nothing
    /// was warned about either.
    public func succeeded(strict: Bool) -> Bool {
        failedCount == 0 && (!strict || warnings.isEmpty)
    }

    /// `N passed, M failed[, K skipped][; W warnings]`.
    public var summaryLine: String {
        var line = "\(passedCount) passed, \(failedCount) failed"
        if !skipped.isEmpty { line += ", \(skipped.count) skipped" }
        if !warnings.isEmpty { line += "; \(warnings.count) warning\(warnings.count == 1 ? "" : "s")" }
        return line
    }
}
