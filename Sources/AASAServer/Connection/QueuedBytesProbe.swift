import Synchronization

/// The most bytes any one connection held queued (responses waiting for
/// the socket plus input held unparsed), across the connections of a
/// listener. Lets the abuse tests check the per-connection memory bound
/// on the real server; updated only when a connection stalls, never on
/// the request path.
final class QueuedBytesProbe: Sendable {
    private let peak = Atomic<Int>(0)

    init() {}

    var peakQueuedBytes: Int { peak.load(ordering: .relaxed) }

    func record(_ queued: Int) {
        var current = peak.load(ordering: .relaxed)
        while queued > current {
            let (exchanged, original) = peak.compareExchange(
                expected: current,
                desired: queued,
                ordering: .relaxed
            )
            if exchanged { return }
            current = original
        }
    }
}
