import Foundation

/// Entries that test the same thing twice: the same URL as the system sees
/// it (however it is written), for the same platform and app.
///
/// A dictionary of 100,000 such keys cost more than matching the URLs; the
/// URLs' hashes (``LinkTestPlan/Item/urlHash``, made with each URL, across
/// the cores) are put in a table instead (open addressing, one `Int32` a
/// slot), and only entries with equal hashes are compared (equal hashes
/// alone are never taken for a duplicate). The table replaced a sort of the
/// hashes, which was the longest part of the search left on one core.
enum DuplicateEntries {
    /// An item the list's warnings are about, and the first earlier item
    /// that tests the same thing (-1 when it repeats none). `Int32`s, as the
    /// table's.
    struct Occurrence: Equatable {
        var index: Int32
        var first: Int32
    }

    /// In list order, each item that repeats an earlier one, and each other
    /// item that `alsoListing` picks (read in place), with `first` -1.
    ///
    /// The items warned about, listed as they are found: an `Int32` of every
    /// item, then a pass over the items to pick the few warned about, was
    /// 400 KB of fresh pages and a second read of every item.
    static func occurrences(
        _ items: [LinkTestPlan.Item],
        alsoListing: (UnsafePointer<LinkTestPlan.Item>) -> Bool = { _ in false }
    ) -> [Occurrence] {
        var found: [Occurrence] = []
        // At most half full, so a probe ends soon at an empty slot.
        var capacity = 16
        while capacity < 2 * items.count { capacity *= 2 }
        let mask = capacity - 1
        // Each slot holds the index of a first occurrence plus one; 0 is empty.
        var table = [Int32](repeating: 0, count: capacity)
        items.withUnsafeBufferPointer { items in
            for index in items.indices {
                let item = items.baseAddress! + index
                guard let hash = item.pointee.urlHash else {
                    if alsoListing(item) { found.append(Occurrence(index: Int32(index), first: -1)) }
                    continue
                }
                var slot = hash & mask
                var first: Int32 = -1
                while table[slot] != 0 {
                    let earlier = Int(table[slot]) - 1
                    if items[earlier].urlHash == hash, Self.testSame(items.baseAddress! + earlier, item) {
                        first = Int32(earlier)
                        break
                    }
                    slot = (slot + 1) & mask
                }
                if first < 0 { table[slot] = Int32(index + 1) }
                if first >= 0 || alsoListing(item) { found.append(Occurrence(index: Int32(index), first: first)) }
            }
        }
        return found
    }

    /// A hash of what ``AASAURL``'s `==` compares (the marks aside: equal
    /// URLs still hash equal), for the table above, from `hostHash`, the
    /// ``hostHash(_:)`` of the URL's host: a list's URLs are mostly of one
    /// host, whose bytes were hashed again for each of them.
    ///
    /// Eight bytes at a time, a multiply and a rotate each, from the host's
    /// hash: `hashValue` of each URL (SipHash over all its bytes) was a
    /// thirtieth of a run.
    /// Equal hashes are always compared, so a collision costs a compare,
    /// never a wrong duplicate; the list is the user's own file, so a
    /// crafted one can slow only its own run.
    static func hash(of url: AASAURL, hostHash: UInt64) -> Int {
        var state = Mix(value: hostHash)
        state.add(url.schemeKind == .https ? 1 : 0)
        state.add(UInt64(bitPattern: Int64(url.port ?? -1)))
        // The tail's bytes, then their count (so that a tail is never the
        // prefix of another's hash): the tail may be a span of the links file.
        url.tail.withUTF8 { bytes in
            state.add(bytes: bytes)
            state.add(UInt64(bytes.count))
        }
        return Int(truncatingIfNeeded: state.value)
    }

    /// What ``hash(of:hostHash:)`` starts from for a URL with `host`:
    /// `String`'s own hash, equal for canonically equivalent hosts (which
    /// the parse's `==` takes for the same host, see
    /// ``LinkTestPlan/LastHost``), so equal bytes always hash alike.
    /// Seeded per process, as `String`'s hash is.
    static func hostHash(_ host: String) -> UInt64 {
        UInt64(bitPattern: Int64(host.hashValue))
    }

    private struct Mix {
        private(set) var value: UInt64

        init(value: UInt64) {
            self.value = value
        }

        mutating func add(_ word: UInt64) {
            let mixed = (value ^ word) &* 0xBF58_476D_1CE4_E5B9
            value = mixed << 29 | mixed >> 35
        }

        /// The words, the last one overlapping the one before when the
        /// count is not a multiple of 8 (the count, added after, tells
        /// such bytes apart): a byte at a time, the last few bytes were a
        /// loop of their own for every string.
        mutating func add(bytes: UnsafeBufferPointer<UInt8>) {
            guard let base = bytes.baseAddress else { return }
            let raw = UnsafeRawPointer(base)
            var index = 0
            while index + 8 <= bytes.count {
                add(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                index += 8
            }
            guard index < bytes.count else { return }
            if bytes.count >= 8 {
                add(raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
                return
            }
            var last: UInt64 = 0
            for offset in 0..<bytes.count { last |= UInt64(base[offset]) << UInt64(8 * offset) }
            add(last)
        }
    }

    /// Whether two items test the same thing: equal URLs (both parsed),
    /// platforms, packages and apps, compared in place.
    ///
    /// A URL written the same twice parses the same, and a list's
    /// duplicates are mostly that: their bytes are compared first, and the
    /// parsed URLs (``AASAURL``'s `==`, a generic walk of three strings,
    /// after copying both optionals) only when the writing differs.
    private static func testSame(_ a: UnsafePointer<LinkTestPlan.Item>, _ b: UnsafePointer<LinkTestPlan.Item>) -> Bool {
        guard a.pointee.entry.platform == b.pointee.entry.platform,
            a.pointee.entry.package == b.pointee.entry.package, a.pointee.entry.app == b.pointee.entry.app,
            // Parsed, tested by the hash: a test of the optional URL
            // through the pointer copied it (a retain of each string).
            a.pointee.urlHash != nil, b.pointee.urlHash != nil
        else { return false }
        // `memcmp`: `elementsEqual` compared them a byte at a time.
        let sameWriting = a.pointee.entry.written.withUTF8 { left in
            b.pointee.entry.written.withUTF8 { right in
                left.count == right.count
                    && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
        return sameWriting || a.pointee.parsed == b.pointee.parsed
    }
}
