/// Runs an expensive transform once per distinct key, the distinct keys
/// across the cores, and hands every input its key's result: a brand's
/// domains mostly serve the same file, and each copy compiled again cost
/// the time and memory of a whole compile.
enum DistinctBatch {
    /// The result for each of `keys`, in order, and how many times
    /// `transform` ran: once per distinct key, given the index of the key's
    /// first occurrence; equal keys share that result.
    static func map<Key: Hashable, Result: Sendable>(
        _ keys: [Key],
        _ transform: @Sendable (Int) -> Result
    ) -> (results: [Result], computed: Int) {
        var slotByKey: [Key: Int] = [:]
        var firsts: [Int] = []
        let slots = keys.indices.map { index in
            if let slot = slotByKey[keys[index]] { return slot }
            slotByKey[keys[index]] = firsts.count
            firsts.append(index)
            return firsts.count - 1
        }
        let unique = firsts
        // Each item is a whole compile: worth a thread of its own from two on.
        let computed = ParallelBatch.map(
            count: unique.count,
            parallel: true,
            minimumChunk: 1,
            state: {},
            { slot, _ in transform(unique[slot]) }
        )
        return (slots.map { computed[$0] }, unique.count)
    }
}
