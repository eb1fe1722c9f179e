import Foundation

/// A run of ``LinkTestRunner`` under way, or its finished report.
///
/// The records are made on other threads from the start of the list; the
/// text of the results already made can be rendered and written meanwhile
/// (``textLineWindows(appColumn:buffers:)``), so that a long report's
/// output overlaps the matching instead of starting after it.
public final class LinkTestRun: @unchecked Sendable {
    // Unchecked Sendable: what the run makes as it goes (the rare results,
    // the report) is made and read under `lock`; the records themselves
    // are made through the table, which is safe to wait on.
    private let lock = NSLock()
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
        if let count = lock.withLock({ progress?.streams == true ? progress?.lean.count : nil }) { return count }
        return report().resultCount
    }

    /// The apps the results are for (``LinkTestReport/apps``), known before
    /// the results when the report is to be the run's records.
    public var apps: Set<String> {
        if let apps = lock.withLock({ progress?.streams == true ? progress?.plannedApps : nil }) { return apps }
        return report().apps
    }

    /// Whether the results can be rendered before the run ends: the report
    /// will be one result per entry, the records' (no bundle ID naming
    /// several apps of a file adds results).
    var streams: Bool { lock.withLock { progress?.streams ?? false } }

    /// ``LinkTestReport/textLineWindows(appColumn:buffers:)``, each window
    /// rendered once its records are made, the next still being matched.
    package func textLineWindows(appColumn: Bool, buffers: WindowBuffers) -> (Range<Int>) -> [[UInt8]] {
        guard let progress, streams else {
            return report().textLineWindows(appColumn: appColumn, buffers: buffers)
        }
        let renderer = LinkTestRecords.TextRenderer(progress.lean, appColumn: appColumn, buffers: buffers)
        return { [self] window in
            // Under the lock: the rare results the window reads are added
            // to the records' side table by whoever completes the run.
            lock.withLock {
                progress.complete(through: window.upperBound)
                return renderer.lines(in: window)
            }
        }
    }

    /// The run's report, once every record is made (waits for them).
    public func report() -> LinkTestReport {
        lock.withLock {
            if let finished { return finished }
            let report = progress!.report()
            finished = report
            return report
        }
    }
}
