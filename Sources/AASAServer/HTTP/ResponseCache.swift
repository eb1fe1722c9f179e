import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One event loop's responses as written this second: status line, `Date`
/// line, `Connection` line and the pre-encoded bytes in one buffer, built on
/// the first request that needs it and shared by every later request of the
/// loop in the same second.
///
/// A request that hits writes a shared buffer (one reference more) where it
/// would otherwise allocate a buffer and copy the response behind its
/// prefix. Bytes on the wire are the same either way.
///
/// Bounds: every entry is dropped when the second changes (its `Date` is
/// stale); within a second, entries are only added while their storage stays
/// under `budget` bytes, after which responses are copied per request as
/// without a cache. Loop-confined: no locks, no atomics of its own.
final class ResponseCache {
    /// Responses up to this size are written as one buffer (cached or
    /// copied): a copy this small costs less than a second write through
    /// the pipeline. Larger ones go out as two writes and are never cached.
    static let coalescingLimit = 16 * 1024
    /// Storage the entries of one second may hold, per event loop.
    static let defaultBudget = 4 * 1024 * 1024
    /// What an entry costs besides its buffer, counted against the budget:
    /// its key and value in the table and its pinned source (24 bytes each),
    /// rounded up.
    static let entryOverhead = 80

    /// The response a cached buffer was built from: the address of its first
    /// byte (the source storage is kept alive while the entry is, so the
    /// address names it), the length written, the status and connection.
    struct Key: Hashable {
        let address: UInt
        let length: Int
        let variant: Int
    }

    let budget: Int
    private(set) var dateLine = DateLine()
    /// The second ``dateLine`` was brought to, compared per request apart
    /// from it: rewriting the line calls out while it is being modified,
    /// which keeps every access to `dateLine` checked for exclusivity at run
    /// time; this one is only ever read and assigned, checked at compile time.
    private var second = -1
    private var entries: [Key: ByteBuffer] = [:]
    /// The sources of this second's entries, kept so that no address in a
    /// key can be reused by another storage while the entry exists.
    private var sources: [ByteBuffer] = []
    private(set) var cachedBytes = 0
    private let allocator = ByteBufferAllocator()
    /// Which host each `Host` header names in the current snapshot, and each
    /// host's known answer with its buffer of this second: a rotating Host
    /// finds its answer without hashing the response here.
    let hosts = HostTable()
    /// ``hosts`` without reference counting, for the per-request calls: a
    /// property of a class passed on or called is retained around the call
    /// (an atomic each way), and this cache keeps the table alive anyway.
    let unretainedHosts: Unmanaged<HostTable>

    init(budget: Int = ResponseCache.defaultBudget) {
        self.budget = budget
        self.unretainedHosts = .passUnretained(hosts)
    }

    /// Entries held now (for tests and the memory bound).
    var count: Int { entries.count }

    /// The one buffer to write for `response` (its head only for HEAD), when
    /// that is within ``coalescingLimit``. `now` is the current second
    /// (tests pass their own).
    func whole(_ response: EncodedResponse, isHead: Bool, now: Int = time(nil)) -> ByteBuffer {
        refresh(now: now)
        return lookUp(response, isHead: isHead).buffer
    }

    /// The one buffer to write for the known answer of `slot` in ``hosts``
    /// (``HostTable/knows(at:selector:)``), when that is within
    /// ``coalescingLimit``. Found in the slot from the second request of
    /// the second on: neither the response nor this cache's table is read.
    @inline(__always)
    func whole(knownAt slot: Int, isHead: Bool, now: Int = time(nil)) -> ByteBuffer {
        refresh(now: now)
        if let written = unretainedHosts._withUnsafeGuaranteedRef({ $0.written(knownAt: slot, isHead: isHead) }) {
            return written
        }
        return remember(knownAt: slot, isHead: isHead)
    }

    /// The first request of the second for a slot's known answer.
    private func remember(knownAt slot: Int, isHead: Bool) -> ByteBuffer {
        let response = hosts.reply(knownAt: slot, isHead: isHead).response
        let (buffer, held) = lookUp(response, isHead: isHead)
        if held { hosts.remember(buffer, knownAt: slot, isHead: isHead) }
        return buffer
    }

    /// This second's buffer for `response`, and whether this cache holds it.
    private func lookUp(_ response: EncodedResponse, isHead: Bool) -> (buffer: ByteBuffer, held: Bool) {
        // Looked up by address, without copying the response's buffer: a
        // copy is a retain and a release.
        let length = response.payloadLength(isHead: isHead)
        let key = response.bytes.withUnsafeReadableBytes { bytes in
            Key(
                address: UInt(bitPattern: bytes.baseAddress),
                length: length,
                variant: response.status.rawValue << 2 | response.connection.rawValue
            )
        }
        if let cached = entries[key] { return (cached, true) }
        let payload = response.payload(isHead: isHead)
        var bytes = allocator.buffer(capacity: dateLine.prefixLength(of: response) + payload.readableBytes)
        dateLine.writePrefix(of: response, into: &bytes)
        bytes.writeImmutableBuffer(payload)
        let cost = bytes.storageCapacity + Self.entryOverhead
        guard cachedBytes + cost <= budget else { return (bytes, false) }
        cachedBytes += cost
        entries[key] = bytes
        sources.append(payload)
        return (bytes, true)
    }

    /// The status, `Date` and `Connection` lines of a response too large to
    /// copy, written in front of its own buffer.
    func prefix(of response: EncodedResponse, now: Int = time(nil)) -> ByteBuffer {
        refresh(now: now)
        var prefix = allocator.buffer(capacity: dateLine.prefixLength(of: response))
        dateLine.writePrefix(of: response, into: &prefix)
        return prefix
    }

    /// Brings the `Date` line to `now`, dropping the entries of an earlier second.
    @inline(__always)
    private func refresh(now: Int) {
        guard now != second else { return }
        second = now
        dateLine.refresh(now: now)
        clear()
    }

    private func clear() {
        entries.removeAll(keepingCapacity: true)
        sources.removeAll(keepingCapacity: true)
        cachedBytes = 0
        hosts.forgetBuffers()
    }
}
