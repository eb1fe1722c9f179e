import AASAKit
import CPrefetch
import NIOCore

/// One event loop's memo of which host a `Host` header names in one
/// ``SiteSnapshot``, keyed by the header's bytes exactly as received; for
/// each such host, of its last answer to a request without preconditions
/// (``knows(at:selector:)``) and of the buffer that answer was written as
/// this second (``written(knownAt:isHead:)``).
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
        /// `snapshot`, lent to a request without a retain.
        var unretainedSnapshot: Unmanaged<SiteSnapshot>
        /// The store's ``SiteStore/swapCount`` when `snapshot` was taken
        /// from it (-1: not taken from the store yet).
        var swapCount = -1
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
            to: State(
                snapshot: snapshot,
                snapshotID: ObjectIdentifier(snapshot),
                unretainedSnapshot: .passUnretained(snapshot),
                slots: slots,
                mask: 0,
                seed: seed
            )
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
        state.pointee.unretainedSnapshot = .passUnretained(snapshot)
        // Not taken from the store (yet): the next request compares again.
        state.pointee.swapCount = -1
    }

    /// Calls `body` with `store`'s current snapshot, served by this table
    /// from now on. Taken under the store's lock only when the store swapped
    /// it since the last call; otherwise lent from here, with neither the
    /// lock nor a retain and a release (three atomics per request).
    @inline(__always)
    func withSnapshot<Result>(of store: SiteStore, _ body: (SiteSnapshot) -> Result) -> Result {
        if store.swapCount != state.pointee.swapCount {
            let (snapshot, swapCount) = store.snapshotAndSwapCount
            if ObjectIdentifier(snapshot) != state.pointee.snapshotID { serve(snapshot) }
            state.pointee.swapCount = swapCount
        }
        return state.pointee.unretainedSnapshot._withUnsafeGuaranteedRef(body)
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
            if slot.pointee.key == key {
                // The host's counts, which a known answer's write adds to:
                // with Host rotating no recent request touched their line,
                // and the add (on x86-64 a locked instruction) would wait for
                // it with nothing else under way. (+16: the first count,
                // after the two words of header every Swift object has.)
                if let counts = slot.pointee.unretainedCounts { aasa_prefetch_for_write(counts.toOpaque() + 16) }
                return index
            }
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

    /// The host in `slot`.
    @inline(__always)
    func host(at slot: Int) -> SiteHost? {
        state.pointee.slots[slot & state.pointee.mask].host
    }

    /// Whether `slot` knows its answer to a request without preconditions
    /// with `selector` (``selector(route:acceptsGzip:connection:)``). The
    /// answer depends on nothing else (not the second: the `Date` is added
    /// when it is written), so it holds until the slot or the snapshot
    /// changes, and the request needs neither host nor file.
    @inline(__always)
    func knows(at slot: Int, selector: Int) -> Bool {
        state.pointee.slots[slot & state.pointee.mask].answerSelector == selector
    }

    /// Remembers `response` as `slot`'s answer for `selector`, accounted to
    /// `counts` (the slot's host's; nil for no host).
    func learn(_ response: EncodedResponse, counts: RequestCounts?, at slot: Int, for selector: Int) {
        let slot = state.pointee.slots + (slot & state.pointee.mask)
        slot.pointee.answerSelector = selector
        slot.pointee.answer = response
        slot.pointee.answerStatus = response.status
        slot.pointee.answerCloses = response.closesConnection
        slot.pointee.answerLength = response.payloadLength(isHead: false)
        slot.pointee.answerHeadLength = response.payloadLength(isHead: true)
        slot.pointee.answerCounts = counts
        slot.pointee.unretainedCounts = counts.map { .passUnretained($0) }
        slot.pointee.written = nil
    }

    /// `slot`'s known answer as a reply: a copy (its buffer retained), for
    /// what the in-place path does not cover (responses too large for one
    /// buffer) and for tests.
    func reply(knownAt slot: Int, isHead: Bool) -> Responder.Reply {
        let slot = state.pointee.slots + (slot & state.pointee.mask)
        return Responder.Reply(
            response: slot.pointee.answer.unsafelyUnwrapped,
            counts: slot.pointee.answerCounts,
            isHead: isHead
        )
    }

    /// What the handler needs of `slot`'s known answer, read in place: a
    /// copy of the answer would retain its buffer, whose storage a rotating
    /// Host finds in no cache line.
    @inline(__always)
    func facts(knownAt slot: Int, isHead: Bool) -> KnownFacts {
        let slot = state.pointee.slots + (slot & state.pointee.mask)
        return KnownFacts(
            status: slot.pointee.answerStatus,
            closesConnection: slot.pointee.answerCloses,
            length: isHead ? slot.pointee.answerHeadLength : slot.pointee.answerLength,
            counts: slot.pointee.unretainedCounts
        )
    }

    /// The buffer `slot`'s known answer was written as this second (GET or
    /// HEAD as `isHead` says), if it is held.
    @inline(__always)
    func written(knownAt slot: Int, isHead: Bool) -> ByteBuffer? {
        let slot = state.pointee.slots + (slot & state.pointee.mask)
        guard slot.pointee.writtenIsHead == isHead else { return nil }
        return slot.pointee.written
    }

    /// Remembers `buffer` as what `slot`'s known answer is written as this
    /// second: only buffers the response cache holds (and so counts against
    /// its budget), which it drops with the second (``forgetBuffers()``).
    func remember(_ buffer: ByteBuffer, knownAt slot: Int, isHead: Bool) {
        let slot = state.pointee.slots + (slot & state.pointee.mask)
        slot.pointee.written = buffer
        slot.pointee.writtenIsHead = isHead
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
        for index in 0..<slotCount where slots[index].written != nil {
            slots[index].written = nil
        }
    }
}

extension HostTable {
    /// What the in-place path reads of a known answer.
    struct KnownFacts {
        let status: EncodedResponse.Status
        let closesConnection: Bool
        let length: Int
        /// Kept alive by the slot's `answerCounts`.
        let counts: Unmanaged<RequestCounts>?
    }

    /// A stored name, what it resolved to and its known answer. What a
    /// request that hits reads comes first (the key, the answer's facts,
    /// the buffer written this second): with Host rotating, every line a
    /// slot spans is a cache miss.
    fileprivate struct Slot {
        var key = Key.empty
        var answerSelector = -1
        var answerStatus = EncodedResponse.Status.ok
        var answerCloses = false
        var writtenIsHead = false
        var answerLength = 0
        var answerHeadLength = 0
        var unretainedCounts: Unmanaged<RequestCounts>?
        var written: ByteBuffer?
        var host: SiteHost?
        var answer: EncodedResponse?
        var answerCounts: RequestCounts?
    }
}
