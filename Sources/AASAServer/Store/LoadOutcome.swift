/// The result of one pass over the served directory.
public struct LoadOutcome: Sendable {
    public var snapshot: SiteSnapshot
    /// Files, directories and settings rejected by this load.
    public var issues: [LoadIssue]
    /// Lint warnings of files served anyway.
    public var warnings: [LoadIssue]
    /// Files read and validated (the rest were unchanged and reused).
    public var filesValidated: Int
    /// Files and hosts missing from the directory but still served because
    /// they vanished since the last poll: a file being replaced by `rm` and
    /// a new copy (`git checkout`, `tar`) is not unpublished. Dropped when
    /// still missing at the next load.
    public var stillServedWhileMissing: [String]
}
