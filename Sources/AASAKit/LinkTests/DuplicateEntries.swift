/// Entries that test the same thing twice: the same URL as the system sees
/// it (however it is written), for the same platform and app.
///
/// A dictionary of 100,000 such keys cost more than matching the URLs; the
/// keys' hashes are computed across the cores instead, sorted, and only
/// entries with equal hashes are compared (equal hashes alone are never
/// taken for a duplicate).
enum DuplicateEntries {
    /// For each item, the index of the first earlier item that tests the
    /// same thing; `nil` for a first occurrence and for an unparsable URL.
    static func firstOccurrences(_ items: [LinkTestPlan.Item]) -> [Int?] {
        let hash: @Sendable (Int, inout Void) -> Int? = { index, _ in Key(items[index])?.hashValue }
        let hashes = ParallelBatch.map(count: items.count, parallel: true, state: {}, hash)
        var order: [(hash: Int, index: Int)] = []
        order.reserveCapacity(items.count)
        for (index, hash) in hashes.enumerated() {
            if let hash { order.append((hash, index)) }
        }
        order.sort { $0 < $1 }
        var first = [Int?](repeating: nil, count: items.count)
        var start = 0
        while start < order.count {
            var end = start + 1
            while end < order.count, order[end].hash == order[start].hash { end += 1 }
            if end - start > 1 {
                // In list order (the sort's second key); the keys decide.
                var distinct: [(key: Key, index: Int)] = []
                for (_, index) in order[start..<end] {
                    guard let key = Key(items[index]) else { continue }
                    if let earlier = distinct.first(where: { $0.key == key }) {
                        first[index] = earlier.index
                    } else {
                        distinct.append((key, index))
                    }
                }
            }
            start = end
        }
        return first
    }

    private struct Key: Hashable {
        var url: AASAURL
        var platform: LinkPlatform
        var package: String?
        var app: LinkTestApp?

        init?(_ item: LinkTestPlan.Item) {
            guard case .success(let url) = item.url else { return nil }
            self.url = url
            platform = item.entry.platform
            package = item.entry.package
            app = item.entry.app
        }
    }
}
