import Foundation
import Metrics

/// The one writer of the process's log: loggers (on event loops, among
/// others) hand it formatted lines and return at once; a thread of its own
/// writes them, so a log reader that is slow, stuck or gone never stalls a
/// request, an accept or `/healthz`.
///
/// Lines wait in a ``LogLineQueue`` bounded in bytes. When it is full, new
/// lines are dropped and counted (`aasa_log_lines_dropped_total`), and once
/// the writer has caught up it writes one line saying how many were lost.
/// Lines that could not be written (the reader closed the pipe) count as
/// dropped too.
///
/// The thread lives until ``stop(deadline:)``: `aasa serve` never stops it
/// (it writes until the process exits), tests stop each writer they start.
public final class LogWriter: @unchecked Sendable {
    // @unchecked: `queue`, `writing`, `stopping` and `finished` are only
    // touched while `condition` is locked.
    private let condition = NSCondition()
    private var queue: LogLineQueue
    private var writing = false
    /// Set by `stop`: the thread ends once the queue is written.
    private var stopping = false
    /// Set by the thread as its last act; `stop` waits for it.
    private var finished = false

    private let output: LogOutput
    private let droppedCounter: Counter
    private let droppedNotice: @Sendable (Int) -> String

    /// Starts the writer thread (one writer per process: `LoggingSystem`
    /// is bootstrapped once). The thread holds the writer until it ends.
    /// - Parameters:
    ///   - capacity: bytes of lines that may wait (see ``LogLineQueue``).
    ///   - metrics: where `aasa_log_lines_dropped_total` is registered.
    ///   - droppedNotice: the line (in the log's format) reporting lost lines.
    public init(
        output: LogOutput,
        capacity: Int = 1 << 20,
        metrics: any MetricsFactory = MetricsSystem.factory,
        droppedNotice: @escaping @Sendable (Int) -> String
    ) {
        self.output = output
        self.queue = LogLineQueue(capacity: capacity)
        self.droppedCounter = Counter(label: "aasa_log_lines_dropped_total", factory: metrics)
        self.droppedNotice = droppedNotice
        let thread = Thread { [self] in run() }
        thread.name = "aasa-log-writer"
        thread.start()
    }

    /// Queues `line` (with its newline) for the writer; drops it when the
    /// queue is full or the writer was stopped. Never blocks beyond a short lock.
    public func submit(_ line: String) {
        condition.lock()
        let kept = !stopping && queue.append(line)
        condition.unlock()
        // Counted here, not by the writer: while the writer is stuck in
        // write(2) the metric must still show the lines being lost.
        if !kept { droppedCounter.increment() }
        // Broadcast, not signal: a `flush` may be waiting on the condition
        // too, and a signal could wake it instead of the writer.
        condition.broadcast()
    }

    /// Waits until everything submitted so far is written, or `deadline`
    /// passes (a reader that never drains the pipe must not hold the
    /// process's exit forever).
    /// - Returns: whether everything was written in time.
    @discardableResult
    public func flush(deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !queue.isEmpty || writing {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    /// Ends the writer thread once every line submitted before is written,
    /// and waits for it to end, but not past `deadline` (a reader that never
    /// drains the pipe holds the thread in write(2)). Lines submitted after
    /// are dropped.
    /// - Returns: whether the thread ended in time.
    @discardableResult
    public func stop(deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        condition.broadcast()
        while !finished {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    /// The writer thread: takes every queued line at once and writes them
    /// together, then the notice of lines dropped meanwhile; ends when
    /// stopped with nothing left to write.
    private func run() {
        var lost = 0
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            if queue.isEmpty {
                finished = true
                condition.unlock()
                condition.broadcast()
                return
            }
            let (lines, dropped) = queue.takeAll()
            writing = true
            condition.unlock()

            lost += dropped
            if output.write(Array(lines.joined().utf8)) != nil {
                lost += lines.count
                droppedCounter.increment(by: lines.count)
            } else if lost > 0, output.write(Array(droppedNotice(lost).utf8)) == nil {
                lost = 0
            }

            condition.lock()
            writing = false
            condition.unlock()
            condition.broadcast()
        }
    }
}
