import Dispatch
import Foundation

/// Runs a transform over `0..<count` in contiguous chunks across the
/// machine's cores (Dispatch's `concurrentPerform`), each chunk with its own
/// state (the matcher's reusable buffers), and returns the results in index
/// order. Lists below ``minimumChunk`` items stay on the calling thread:
/// handing them to other threads costs more than it saves.
public enum ParallelBatch {
    /// The fewest items worth a chunk of their own.
    public static let minimumChunk = 2_048

    /// `transform` of each index of `0..<count`, in order, across the
    /// cores for a long list, each chunk with its own `state` (reusable
    /// buffers); the results are written in place, never copied.
    /// `minimumChunk` lowers the threshold for items that each cost far
    /// more than a thread hand-off (compiling a file: milliseconds).
    public static func map<State, Result>(
        count: Int,
        parallel: Bool,
        minimumChunk: Int = minimumChunk,
        state makeState: @Sendable () -> State,
        _ transform: @Sendable (Int, inout State) -> Result
    ) -> [Result] {
        let chunks = chunkCount(count, parallel: parallel, minimumChunk: minimumChunk)
        guard chunks > 1 else {
            var state = makeState()
            return (0..<count).map { transform($0, &state) }
        }
        return [Result](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Small pages, no huge-page advice: see DECISIONS, "Huge pages
            // for the big buffers of a run".
            guard let base = buffer.baseAddress else { return }
            let output = Output(base: base)
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                var state = makeState()
                for index in range(chunk, of: chunks, count: count) {
                    (output.base + index).initialize(to: transform(index, &state))
                }
            }
            initialized = count
        }
    }

    /// `transform` over contiguous ranges that together cover `0..<count`,
    /// in order: one range on the calling thread for a short list, else the
    /// chunks ``map(count:parallel:state:_:)`` would use, across the cores.
    public static func mapRanges<Result>(
        count: Int,
        parallel: Bool,
        _ transform: @Sendable (Range<Int>) -> Result
    ) -> [Result] {
        let chunks = chunkCount(count, parallel: parallel)
        guard chunks > 1 else { return [transform(0..<count)] }
        return [Result](unsafeUninitializedCapacity: chunks) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let output = Output(base: base)
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                (output.base + chunk).initialize(to: transform(range(chunk, of: chunks, count: count)))
            }
            initialized = chunks
        }
    }

    /// A few chunks per core, so that a core slowed by a neighbour does not
    /// hold the whole list back; none below two chunks' worth of items.
    private static func chunkCount(_ count: Int, parallel: Bool, minimumChunk: Int = minimumChunk) -> Int {
        parallel ? min(count / minimumChunk, 4 * ProcessInfo.processInfo.activeProcessorCount) : 0
    }

    private static func range(_ chunk: Int, of chunks: Int, count: Int) -> Range<Int> {
        (count * chunk / chunks)..<(count * (chunk + 1) / chunks)
    }
}

/// The result buffer shared by the chunks. Unchecked: each chunk
/// initialises only its own, disjoint range of indices, and
/// `concurrentPerform` returns only after every chunk has finished, before
/// the array is handed out.
private struct Output<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>
}
