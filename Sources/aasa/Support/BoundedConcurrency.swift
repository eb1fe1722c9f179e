/// Runs `operation` over `items` with at most `limit` running at once,
/// returning results in the order of `items` (not of completion), and
/// calling `progress` after each one finishes.
func concurrentMap<Item: Sendable, Result: Sendable>(
    _ items: [Item],
    limit: Int,
    operation: @escaping @Sendable (Item) async -> Result,
    progress: (_ done: Int, _ item: Item) -> Void
) async -> [Result] {
    await withTaskGroup(of: (Int, Result).self) { group in
        var results = [Result?](repeating: nil, count: items.count)
        var next = 0
        var done = 0
        func startNext() {
            guard next < items.count else { return }
            let index = next
            let item = items[index]
            group.addTask { (index, await operation(item)) }
            next += 1
        }
        for _ in 0..<max(1, limit) { startNext() }
        while let (index, result) = await group.next() {
            results[index] = result
            done += 1
            progress(done, items[index])
            startNext()
        }
        return results.compactMap { $0 }
    }
}
