import Dispatch
import NIOConcurrencyHelpers

/// Runs one job per host of a load on up to `width` threads and hands the
/// results over in the hosts' order, whatever thread produced them, so a
/// load reports the same issues in the same order as one working
/// sequentially.
///
/// A job is a host's whole share of a load: opening and reading its files,
/// then validating what changed (parsing, the schema, the lints, encoding
/// and compressing the responses). Every host's is independent of every
/// other's, and reading in the same job as validating keeps all the cores
/// busy from the first host to the last: a single reader feeding the
/// validating threads made them wait for it. The results are handed over
/// as soon as those before them are, not all at the end, so a load holds
/// only the few that wait for a slower thread, and the bytes of a file are
/// freed as soon as it is validated.
struct ParallelHosts {
    /// Threads to use: the event loops' count, the cores the server is given.
    let width: Int

    /// Below this many hosts per thread the hand-over costs more than it
    /// saves (a poll usually finds one changed file, or none).
    static let minimumPerThread = 8

    /// Calls `job(index)` for every index in `0..<count`, and
    /// `consume(index, result)` with each result in the indices' order, one
    /// call at a time (on whichever thread finished the result due next).
    /// With one thread (or few hosts) everything runs here, in order.
    func forEach<Result>(count: Int, _ job: (Int) -> Result, inOrder consume: (Int, Result) -> Void) {
        let threads = min(width, count / Self.minimumPerThread)
        guard threads > 1 else {
            for index in 0..<count { consume(index, job(index)) }
            return
        }
        // Small chunks, taken in turn: a thread that drew large files does
        // not hold the others back, and the threads end close together.
        let chunkSize = max(1, min(16, count / (threads * 16)))
        withoutActuallyEscaping(job) { job in
            withoutActuallyEscaping(consume) { consume in
                let shared = SharedHosts(job: job, consume: consume, count: count, chunkSize: chunkSize)
                DispatchQueue.concurrentPerform(iterations: threads) { _ in shared.work() }
            }
        }
    }
}

/// The state the threads of one ``ParallelHosts/forEach(count:_:inOrder:)``
/// share: the next chunk to take, the chunks done and not yet handed over,
/// and whether a thread is handing over, all under a lock.
///
/// `@unchecked Sendable` because of the closures: the loader's jobs read
/// through open directory handles (descriptors used only with `openat`,
/// `fstatat` and `read`, safe from any thread) and validate with a pure
/// ``FileValidator``; `consume` runs on one thread at a time, in order
/// (the lock hands the role over); and the closures do not outlive the call,
/// which returns only when every thread is done.
private final class SharedHosts<Result>: @unchecked Sendable {
    private let job: (Int) -> Result
    private let consume: (Int, Result) -> Void
    private let count: Int
    private let chunkSize: Int
    private let lock = NIOLock()
    private var next = 0
    /// Chunks done, waiting for the ones before them.
    private var done: [Int: [Result]] = [:]
    /// The first chunk not handed over yet.
    private var due = 0
    private var handingOver = false

    init(job: @escaping (Int) -> Result, consume: @escaping (Int, Result) -> Void, count: Int, chunkSize: Int) {
        self.job = job
        self.consume = consume
        self.count = count
        self.chunkSize = chunkSize
    }

    private var chunkCount: Int { (count + chunkSize - 1) / chunkSize }

    /// Takes chunks in turn until none is left, handing over results when
    /// this thread's chunk is the one due.
    func work() {
        while true {
            let chunk = lock.withLock {
                defer { next += 1 }
                return next
            }
            guard chunk < chunkCount else { return }
            let results = (chunk * chunkSize..<min(count, (chunk + 1) * chunkSize)).map(job)
            var ready = lock.withLock { () -> [(chunk: Int, results: [Result])]? in
                done[chunk] = results
                guard !handingOver, let due = takeDue() else { return nil }
                handingOver = true
                return due
            }
            // The thread handing over keeps at it while chunks come due; a
            // thread finishing a later chunk leaves it to this one.
            while let batch = ready {
                for (chunk, results) in batch {
                    for (offset, result) in results.enumerated() {
                        consume(chunk * chunkSize + offset, result)
                    }
                }
                ready = lock.withLock {
                    let more = takeDue()
                    if more == nil { handingOver = false }
                    return more
                }
            }
        }
    }

    /// The chunks due now, in a row from `due`, removed; nil if none is.
    /// Called under the lock.
    private func takeDue() -> [(chunk: Int, results: [Result])]? {
        var taken: [(chunk: Int, results: [Result])] = []
        while let results = done.removeValue(forKey: due) {
            taken.append((due, results))
            due += 1
        }
        return taken.isEmpty ? nil : taken
    }
}
