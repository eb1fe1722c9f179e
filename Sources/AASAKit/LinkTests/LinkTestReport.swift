/// All results of a run.
public struct LinkTestReport: Sendable {
    public var results: [LinkTestResult]

    public init(results: [LinkTestResult]) {
        self.results = results
    }

    public var passedCount: Int { results.count(where: \.passed) }
    public var failedCount: Int { results.count - passedCount }
    public var failures: [LinkTestResult] { results.filter { !$0.passed } }

    /// `N passed, M failed`.
    public var summaryLine: String { "\(passedCount) passed, \(failedCount) failed" }
}
