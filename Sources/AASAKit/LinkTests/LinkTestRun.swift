/// A run of ``LinkTestRunner`` under way, or its finished report.
///
/// The records are made on other threads from the start of the list; the
/// text of the results already made can be rendered and written meanwhile
/// (``textLineWindows(appColumn:buffers:)``), so that a long report's
/// output overlaps the matching instead of starting after it.
///
/// Not for sharing between threads: one thread renders the windows in
/// order, then asks for the ``report()``.
public final class LinkTestRun: @unchecked Sendable {
    // Unchecked Sendable: everything mutable is used by the one thread that
    // drives the run; the records are made through the table, which is
    // safe to wait on.
    private let progress: Progress?
    private var finished: LinkTestReport?

    /// A run that has finished with `report`.
    public init(report: LinkTestReport) {
        progress = nil
        finished = report
    }

    /// A run under way.
    init(progress: Progress) {
        self.progress = progress
    }

    /// How many results the report has.
    public var resultCount: Int {
        guard let progress, progress.streams else { return report().resultCount }
        return progress.lean.count
    }

    /// The apps the results are for (``LinkTestReport/apps``), known before
    /// the results when the report is to be the run's records.
    public var apps: Set<String> {
        guard let progress, let apps = progress.plannedApps else { return report().apps }
        return apps
    }

    /// Whether the results can be rendered before the run ends: the report
    /// will be one result per entry, the records' (no bundle ID naming
    /// several apps of a file adds results).
    var streams: Bool { progress?.streams ?? false }

    /// ``LinkTestReport/textLineWindows(appColumn:buffers:)``, each window
    /// rendered once its records are made, the next still being matched.
    package func textLineWindows(appColumn: Bool, buffers: WindowBuffers) -> (Range<Int>) -> [[UInt8]] {
        guard let progress, progress.streams else {
            return report().textLineWindows(appColumn: appColumn, buffers: buffers)
        }
        let renderer = LinkTestRecords.TextRenderer(progress.lean, appColumn: appColumn, buffers: buffers)
        return { window in
            progress.complete(through: window.upperBound)
            return renderer.lines(in: window)
        }
    }

    /// The run's report, once every record is made (waits for them).
    public func report() -> LinkTestReport {
        if let finished { return finished }
        let report = progress!.report()
        finished = report
        return report
    }
}
