/// All results of a run, and what deserves a second look without failing
/// it unless the run is strict.
public struct LinkTestReport: Sendable {
    /// Where the results are: as given, or in the lean form of a run.
    private enum Storage: Sendable {
        case results([LinkTestResult])
        case records(LinkTestRecords)
    }

    private var storage: Storage

    /// Every result, in list order. A run's report holds them in a lean
    /// form and makes them whole on the first read; the CLI renders from
    /// the lean form and never builds them.
    public var results: [LinkTestResult] {
        get {
            switch storage {
            case .results(let results): results
            case .records(let records): records.results
            }
        }
        set { storage = .results(newValue) }
    }

    /// The lean form of the results, unless they were given or replaced.
    var records: LinkTestRecords? {
        guard case .records(let records) = storage else { return nil }
        return records
    }

    /// How many results there are, without making them whole.
    public var resultCount: Int {
        switch storage {
        case .results(let results): results.count
        case .records(let records): records.count
        }
    }
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
        storage = .results(results)
        self.warnings = warnings
        self.skipped = skipped
        self.uncoveredRules = uncoveredRules
    }

    /// A run's lean results, with what else the run found.
    init(
        records: LinkTestRecords,
        warnings: [Diagnostic],
        skipped: [LinkExpectations.Entry],
        uncoveredRules: [UncoveredRule]?
    ) {
        storage = .records(records)
        self.warnings = warnings
        self.skipped = skipped
        self.uncoveredRules = uncoveredRules
    }

    public var passedCount: Int { resultCount - failedCount }
    public var failedCount: Int {
        switch storage {
        case .records(let records): return records.failedCount
        case .results(let results):
            // By index: reading one field, not copying 100,000 results.
            var count = 0
            for index in results.indices where results[index].failure != nil { count += 1 }
            return count
        }
    }
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
