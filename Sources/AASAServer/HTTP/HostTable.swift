import AASAKit
import NIOCore

/// One event loop's memo of which host a `Host` header names in one
/// ``SiteSnapshot``, keyed by the header's bytes exactly as received; for
/// each such host, of its last answer to a request without preconditions
/// (``answer(at:for:)``) and of the last buffer written for it this second
/// (``memo(at:for:)``).
///
/// Resolving a `Host` the long way checks and folds the name, hashes it with
/// SipHash into the snapshot's dictionary and compares the key's bytes on
/// the heap; with Host rotating over many hosts every step of it touches
/// memory no other request touched recently. Here a lookup hashes at most
/// ``keyCapacity`` bytes held inline in the slot, compares them in place and
/// yields the host, whatever the spelling (`Example.COM:443.` and
/// `example.com` are two keys naming one host).
///
/// - **Never stale.** The table serves one snapshot at a time: a lookup in
///   another snapshot (the store swapped it) empties every slot first, so a
///   reload can never be answered with a previous load's files.
/// - **Bounded.** A fixed number of slots, chosen for each snapshot
///   (``slotCount(for:)``); a miss replaces a slot of its probe window, so a
///   flood of distinct Hosts only evicts, never grows the table. Headers
///   longer than ``keyCapacity`` and invalid names are never stored.
/// - **Flood-resistant.** The hash is seeded per table (which names share
///   a window differs from table to table and from run to run) and a probe
///   looks at ``window`` slots at most: colliding names are compared in
///   full and fall back to the long way, never to another host.
///
/// Loop-confined: no locks, no atomics of its own. Its state sits behind
/// one pointer, so that the per-request reads neither retain the table's
/// parts nor pay the dynamic exclusivity checks of a class's stored `var`s.
final class HostTable {
    /// The longest header value kept in a slot; longer ones are resolved
    /// the long way on every request.
    static let keyCapacity = 48
    /// Slots looked at for one key.
    static let window = 4
    static let minimumSlots = 256
    static let maximumSlots = 4096

    private struct State {
        /// The snapshot every slot was resolved in, kept alive so that its
        /// identity cannot be taken by another while the slots are here.
        var snapshot: SiteSnapshot
        var snapshotID: ObjectIdentifier
        var slots: UnsafeMutablePointer<Slot>
        var mask: Int
        let seed: UInt64
    }

    private let state: UnsafeMutablePointer<State>

    /// - Parameter seed: tests fix it; the server draws one per table.
    init(seed: UInt64 = .random(in: .min ... .max)) {
        let snapshot = SiteSnapshot.empty
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: 1)
        slots.initialize(to: Slot())
        state = .allocate(capacity: 1)
        state.initialize(
            to: State(snapshot: snapshot, snapshotID: ObjectIdentifier(snapshot), slots: slots, mask: 0, seed: seed)
        )
    }

    deinit {
        state.pointee.slots.deinitialize(count: state.pointee.mask + 1)
        state.pointee.slots.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Room for every exact name twice over (few collisions), within bounds:
    /// a large deployment's rarely asked names simply take turns.
    static func slotCount(for snapshot: SiteSnapshot) -> Int {
        var count = minimumSlots
        while count < 2 * snapshot.exact.count, count < maximumSlots { count *= 2 }
        return count
    }

    /// The snapshot the slots were resolved in.
    var snapshot: SiteSnapshot { state.pointee.snapshot }

    var slotCount: Int { state.pointee.mask + 1 }

    /// Slots holding a name (for tests and the memory bound).
    var storedCount: Int {
        (0..<slotCount).reduce(0) { $0 + (state.pointee.slots[$1].key.isEmpty ? 0 : 1) }
    }

    /// Empties every slot and serves `snapshot` from now on, with
    /// `slotCount` slots (a power of two; tests choose it).
    func serve(_ snapshot: SiteSnapshot, slotCount: Int? = nil) {
        let count = slotCount ?? Self.slotCount(for: snapshot)
        precondition(count > 0 && count & (count - 1) == 0, "slot count must be a power of two")
        state.pointee.slots.deinitialize(count: self.slotCount)
        if count != self.slotCount {
            state.pointee.slots.deallocate()
            state.pointee.slots = .allocate(capacity: count)
            state.pointee.mask = count - 1
        }
        state.pointee.slots.initialize(repeating: Slot(), count: count)
        state.pointee.snapshot = snapshot
        state.pointee.snapshotID = ObjectIdentifier(snapshot)
    }

    /// Resolves `header` (a `Host` value as received) in `snapshot` to the
    /// host `snapshot.host(for: HostName(authority: header))`. Returns the
    /// slot holding it (read it with ``host(at:)``), or -1 with the host in
    /// `host` when the header is not stored, or nil when the header is not
    /// a host name (a 400).
    @inline(__always)
    func resolve(_ header: String, in snapshot: SiteSnapshot, into host: inout SiteHost?) -> Int? {
        if ObjectIdentifier(snapshot) != state.pointee.snapshotID { serve(snapshot) }
        guard let key = Key(header) else {
            guard let name = HostName(authority: header) else { return nil }
            host = snapshot.host(for: name)
            return -1
        }
        let slots = state.pointee.slots
        let mask = state.pointee.mask
        let hash = key.hash(seed: state.pointee.seed)
        // The window starts at the hash's top bits: a multiply carries only
        // upward, so those depend on every byte of the key, where the low
        // bits ignored the high bits of the last word (names differing in
        // their last bytes all started at one slot, whatever the seed).
        let bits = UInt64((mask &+ 1).trailingZeroBitCount)
        let start = Int(truncatingIfNeeded: hash >> (64 &- bits))
        var free = -1
        for step in 0..<Self.window {
            let index = (start &+ step) & mask
            let slot = slots + index
            if slot.pointee.key == key { return index }
            // Slots are replaced, never emptied: the key is in no later slot.
            if slot.pointee.key.isEmpty {
                free = index
                break
            }
        }
        guard let name = HostName(authority: header) else { return nil }
        let found = snapshot.host(for: name)
        // A full window gives up a slot the seeded hash picks: which one is
        // not something a client can aim at.
        let victim = Int(truncatingIfNeeded: (hash >> (62 &- bits)) & 3)
        let index = free >= 0 ? free : (start &+ victim) & mask
        slots[index] = Slot(key: key, host: found)
        return index
    }

    /// The buffer last written for `response` through `slot`, if it was
    /// for this response and is still held (see ``ResponseCache``).
    @inline(__always)
    func memo(at slot: Int, for response: ResponseCache.Key) -> ByteBuffer? {
        let slot = state.pointee.slots + (slot & state.pointee.mask)
        guard slot.pointee.memoKey == response else { return nil }
        return slot.pointee.memo
    }

    /// Remembers `buffer` as `slot`'s answer to `response`; only buffers
    /// the response cache holds (and so counts against its budget).
    @inline(__always)
    func remember(_ buffer: ByteBuffer, at slot: Int, for response: ResponseCache.Key) {
        let slot = state.pointee.slots + (slot & state.pointee.mask)
        slot.pointee.memoKey = response
        slot.pointee.memo = buffer
    }

    /// The host in `slot`.
    @inline(__always)
    func host(at slot: Int) -> SiteHost? {
        state.pointee.slots[slot & state.pointee.mask].host
    }

    /// What a request without preconditions for `route`, with `acceptsGzip`
    /// and `connection`, was last answered through `slot`: the response
    /// and the counts it goes to. It depends on nothing else (not the
    /// second: the `Date` is added later), so it holds until the slot or
    /// the snapshot changes, and the request needs neither host nor file.
    @inline(__always)
    func answer(at slot: Int, for selector: Int) -> (response: EncodedResponse, counts: RequestCounts?)? {
        let slot = state.pointee.slots + (slot & state.pointee.mask)
        guard slot.pointee.answerSelector == selector, let response = slot.pointee.answer else { return nil }
        return (response, slot.pointee.answerCounts)
    }

    /// Remembers `response` as `slot`'s answer for `selector`.
    func learn(_ response: EncodedResponse, counts: RequestCounts?, at slot: Int, for selector: Int) {
        let slot = state.pointee.slots + (slot & state.pointee.mask)
        slot.pointee.answerSelector = selector
        slot.pointee.answer = response
        slot.pointee.answerCounts = counts
    }

    /// The selector of a request without preconditions: the route, the
    /// representation and the connection variant pick its response.
    @inline(__always)
    static func selector(route: Route, acceptsGzip: Bool, connection: EncodedResponse.Connection) -> Int {
        let routeIndex =
            switch route {
            case .appleAppSiteAssociation: 0
            case .legacyAppleAppSiteAssociation: 1
            case .assetLinks: 2
            }
        return routeIndex | (acceptsGzip ? 4 : 0) | connection.rawValue << 3
    }

    /// Drops every remembered buffer: the response cache dropped them (the
    /// second changed), and a slot must not keep their storage alive.
    func forgetBuffers() {
        let slots = state.pointee.slots
        for index in 0..<slotCount where slots[index].memo != nil {
            slots[index].memo = nil
            slots[index].memoKey = nil
        }
    }
}

extension HostTable {
    /// A stored name and what it resolved to.
    fileprivate struct Slot {
        var key = Key.empty
        var host: SiteHost?
        var memoKey: ResponseCache.Key?
        var memo: ByteBuffer?
        var answerSelector = -1
        var answer: EncodedResponse?
        var answerCounts: RequestCounts?
    }

    /// Up to ``keyCapacity`` bytes held inline, zero-padded: compared and
    /// hashed as six words, with no heap access.
    fileprivate struct Key: Equatable {
        typealias Words = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
        private var words: Words = (0, 0, 0, 0, 0, 0)
        private var length = 0

        static let empty = Key()

        private init() {}

        /// Nil for an empty header (never a host) and one too long to keep.
        /// Inlined: called, it would take the string owned (a retain more).
        @inline(__always)
        init?(_ header: String) {
            let copied = header.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
                guard !bytes.isEmpty, bytes.count <= HostTable.keyCapacity else { return false }
                withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
                length = bytes.count
                return true
            }
            guard copied == true else { return nil }
        }

        var isEmpty: Bool { length == 0 }

        static func == (one: Key, other: Key) -> Bool {
            one.length == other.length && one.words.0 == other.words.0 && one.words.1 == other.words.1
                && one.words.2 == other.words.2 && one.words.3 == other.words.3 && one.words.4 == other.words.4
                && one.words.5 == other.words.5
        }

        /// A multiply-xorshift mix of the words under a per-table seed.
        @inline(__always)
        func hash(seed: UInt64) -> UInt64 {
            let start = seed ^ (UInt64(length) &* 0x9E37_79B9_7F4A_7C15)
            return Self.mix(
                Self.mix(Self.mix(Self.mix(Self.mix(Self.mix(start, words.0), words.1), words.2), words.3), words.4),
                words.5
            )
        }

        @inline(__always)
        private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
            return mixed ^ (mixed >> 31)
        }
    }
}
