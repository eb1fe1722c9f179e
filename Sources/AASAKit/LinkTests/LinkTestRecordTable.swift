import Dispatch
import Foundation

/// The records of a run, one per item, made across the cores in chunks on a
/// thread of their own and readable a prefix at a time: the text report's
/// first lines go out while the rest of the list is matched, where the
/// report waited for the last record (and one core idled while the other
/// wrote 15 MB into a pipe).
final class LinkTestRecordTable: @unchecked Sendable {
    /// Items per chunk: ``ParallelBatch``'s, a few per window of the report,
    /// so that the first window is ready early and the cores stay busy to
    /// the end.
    static let chunk = ParallelBatch.minimumChunk

    let count: Int
    // Unchecked Sendable: each chunk's records are written by one thread,
    // before it marks the chunk done under `condition`; they are read (and
    // a rare record's `side` set) only by a thread that waited for that
    // under the same lock.
    private let base: UnsafeMutablePointer<LinkTestRecord>
    private let condition = NSCondition()
    private var done: [Bool]
    /// The records before this index are all made.
    private var ready = 0

    /// Makes `record(index, &scratch)` for every index of `0..<count`, each
    /// chunk with a scratch of its own: on a thread of its own, across the
    /// cores, for a list of at least two whole chunks (as ``ParallelBatch``
    /// decides); here at once for a shorter one.
    init(count: Int, record: @escaping @Sendable (Int, inout EvaluationScratch) -> LinkTestRecord) {
        self.count = count
        base = .allocate(capacity: max(count, 1))
        let chunks = (count + Self.chunk - 1) / Self.chunk
        done = Array(repeating: false, count: chunks)
        guard count >= 2 * Self.chunk else {
            var state = EvaluationScratch()
            for index in 0..<count { (base + index).initialize(to: record(index, &state)) }
            ready = count
            done = Array(repeating: true, count: chunks)
            return
        }
        // The thread holds the table until every record is made.
        let thread = Thread { [self] in
            // `concurrentPerform` hands the chunks out in order, so the
            // list is made from its start, about a chunk per core at a time.
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                var state = EvaluationScratch()
                let range = (chunk * Self.chunk)..<min((chunk + 1) * Self.chunk, count)
                for index in range { (base + index).initialize(to: record(index, &state)) }
                finished(chunk)
            }
        }
        // The caller waits for it (Darwin starts a thread at the default
        // quality of service, below the waiting thread's).
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    private func finished(_ chunk: Int) {
        condition.lock()
        done[chunk] = true
        var next = ready / Self.chunk
        while next < done.count, done[next] { next += 1 }
        ready = min(next * Self.chunk, count)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the records of `0..<end` are all made.
    func wait(through end: Int) {
        condition.lock()
        while ready < end { condition.wait() }
        condition.unlock()
    }

    /// The record at `index`, which must be made (``wait(through:)``).
    subscript(index: Int) -> LinkTestRecord {
        get { base[index] }
        set { base[index] = newValue }
    }

    /// The records, read in place: only the ones made may be read.
    func withRecords<Result>(_ body: (UnsafeBufferPointer<LinkTestRecord>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }
}
