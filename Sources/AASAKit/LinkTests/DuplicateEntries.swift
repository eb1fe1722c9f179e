/// Entries that test the same thing twice: the same URL as the system sees
/// it (however it is written), for the same platform and app.
///
/// A dictionary of 100,000 such keys cost more than matching the URLs; the
/// keys' hashes are computed across the cores instead and put in a table of
/// hashes (open addressing, one `Int32` a slot), and only entries with equal
/// hashes are compared (equal hashes alone are never taken for a duplicate).
/// The table replaced a sort of the hashes, which was the longest part of
/// the search left on one core.
enum DuplicateEntries {
    /// For each item, the index of the first earlier item that tests the
    /// same thing; `nil` for a first occurrence and for an unparsable URL.
    static func firstOccurrences(_ items: [LinkTestPlan.Item]) -> [Int?] {
        let hash: @Sendable (Int, inout Void) -> Int? = { index, _ in
            items.withUnsafeBufferPointer { Self.hash($0.baseAddress! + index) }
        }
        let hashes = ParallelBatch.map(count: items.count, parallel: true, state: {}, hash)
        var first = [Int?](repeating: nil, count: items.count)
        // At most half full, so a probe ends soon at an empty slot.
        var capacity = 16
        while capacity < 2 * items.count { capacity *= 2 }
        let mask = capacity - 1
        // Each slot holds the index of a first occurrence plus one; 0 is empty.
        var table = [Int32](repeating: 0, count: capacity)
        items.withUnsafeBufferPointer { items in
            for index in hashes.indices {
                guard let hash = hashes[index] else { continue }
                var slot = hash & mask
                while table[slot] != 0 {
                    let earlier = Int(table[slot]) - 1
                    if hashes[earlier] == hash, Key(items.baseAddress! + earlier) == Key(items.baseAddress! + index) {
                        first[index] = earlier
                        break
                    }
                    slot = (slot + 1) & mask
                }
                if first[index] == nil { table[slot] = Int32(index + 1) }
            }
        }
        return first
    }

    /// A hash of the item's URL, read in place; `nil` when it does not
    /// parse. Equal keys have equal URLs, so equal hashes; the platform and
    /// app, which rarely differ, are left to the comparison of the keys.
    /// (A ``Key`` copied the URL out of the item, a retain and a release of
    /// each of its strings, and hashed the enums' raw strings.)
    private static func hash(_ item: UnsafePointer<LinkTestPlan.Item>) -> Int? {
        guard case .success(let url) = item.pointee.url else { return nil }
        var hasher = Hasher()
        hasher.combine(url.host)
        hasher.combine(url.path)
        hasher.combine(url.query)
        hasher.combine(url.fragment)
        return hasher.finalize()
    }

    private struct Key: Equatable {
        var url: AASAURL
        var platform: LinkPlatform
        var package: String?
        var app: LinkTestApp?

        /// Read in place: a copy of the item would retain each of its fields.
        init?(_ item: UnsafePointer<LinkTestPlan.Item>) {
            guard case .success(let url) = item.pointee.url else { return nil }
            self.url = url
            platform = item.pointee.entry.platform
            package = item.pointee.entry.package
            app = item.pointee.entry.app
        }
    }
}
