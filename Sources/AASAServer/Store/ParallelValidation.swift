import Dispatch
import NIOConcurrencyHelpers

/// Validates a load's candidates on up to `width` threads. Validation is
/// most of what a first load costs (parsing, the schema, the lints,
/// encoding and compressing the responses) and each file's is independent
/// of every other's: ``FileValidator`` is pure. The verdicts come back in
/// the candidates' order, whatever thread produced them, so a load reports
/// the same issues in the same order as one validating sequentially.
struct ParallelValidation {
    let validator: FileValidator
    /// Threads to use: the event loops' count, the cores the server is given.
    let width: Int

    /// Below this many candidates per thread the hand-over costs more than
    /// it saves (a poll usually finds one changed file, or none).
    static let minimumPerThread = 8

    /// A validation running in the background while the loader reads the
    /// next batch from disk: reading is one thread's work, and without this
    /// the other cores would wait for it between batches.
    final class Running: Sendable {
        private let group = DispatchGroup()
        private let verdicts = NIOLockedValueBox<[FileValidator.Verdict]>([])

        fileprivate init() {}

        fileprivate func start(_ work: @escaping @Sendable () -> [FileValidator.Verdict]) {
            DispatchQueue.global().async(group: group) { [verdicts] in
                let result = work()
                verdicts.withLockedValue { $0 = result }
            }
        }

        fileprivate func finish(_ result: [FileValidator.Verdict]) {
            verdicts.withLockedValue { $0 = result }
        }

        /// The verdicts, in the candidates' order, once every one is in.
        func wait() -> [FileValidator.Verdict] {
            group.wait()
            return verdicts.withLockedValue { $0 }
        }
    }

    /// Starts validating `candidates` and returns at once; a load too small
    /// to spread over threads is validated here, before returning.
    func start(_ candidates: [FileValidator.Candidate]) -> Running {
        let running = Running()
        if threads(for: candidates.count) > 1 {
            running.start { [self] in validate(candidates) }
        } else {
            running.finish(candidates.map(validator.validate))
        }
        return running
    }

    private func threads(for count: Int) -> Int {
        min(width, count / Self.minimumPerThread)
    }

    func validate(_ candidates: [FileValidator.Candidate]) -> [FileValidator.Verdict] {
        let threads = threads(for: candidates.count)
        guard threads > 1 else { return candidates.map(validator.validate) }
        // Small chunks, taken in turn: a thread that drew large files does
        // not hold the others back.
        let chunkSize = max(1, candidates.count / (threads * 8))
        let chunkCount = (candidates.count + chunkSize - 1) / chunkSize
        let next = NIOLockedValueBox(0)
        let done = NIOLockedValueBox([[FileValidator.Verdict]?](repeating: nil, count: chunkCount))
        let validator = self.validator
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while true {
                let chunk = next.withLockedValue { value -> Int in
                    defer { value += 1 }
                    return value
                }
                guard chunk < chunkCount else { return }
                let range = chunk * chunkSize..<min(candidates.count, (chunk + 1) * chunkSize)
                let verdicts = candidates[range].map(validator.validate)
                done.withLockedValue { $0[chunk] = verdicts }
            }
        }
        return done.withLockedValue { $0 }.flatMap { $0 ?? [] }
    }
}
