import NIOCore

/// The input a ``ConnectionGuard`` holds back while its connection's
/// responses are queued past the water mark, within the connection's input
/// budget, and the most bytes the connection has held at any moment
/// (queued responses plus held input), which the memory bound is about.
struct HeldInput {
    /// Whether input is being held (parsing and reading stopped).
    private(set) var isHeld = false
    /// The most bytes held at any moment.
    private var peakQueuedBytes = 0
    private var backlog = ByteBuffer()
    private var queuedAtStall = 0
    private let budget: Int
    private let probe: QueuedBytesProbe?

    init(budget: Int, probe: QueuedBytesProbe?) {
        self.budget = budget
        self.probe = probe
    }

    /// Starts holding, with `queued` response bytes waiting for the socket.
    mutating func stall(queued: Int) {
        isHeld = true
        queuedAtStall = queued
        notePeak()
    }

    /// Adds `input` to what is held; `false`, holding nothing more, when
    /// that would go past the budget.
    mutating func hold(_ input: ByteBuffer) -> Bool {
        guard backlog.readableBytes + input.readableBytes <= budget else { return false }
        var input = input
        backlog.writeBuffer(&input)
        notePeak()
        return true
    }

    /// The socket drained: stop holding (what was held stays until taken).
    mutating func resume() {
        isHeld = false
        queuedAtStall = 0
    }

    /// What was held, handed over and forgotten.
    mutating func take() -> ByteBuffer {
        let pending = backlog
        backlog = ByteBuffer()
        return pending
    }

    /// Forgets what was held: the connection is closing.
    mutating func drop() {
        backlog = ByteBuffer()
    }

    /// While held nothing more is answered, so the queued responses are at
    /// most what they were when the connection stalled.
    private mutating func notePeak() {
        let queued = queuedAtStall + backlog.readableBytes
        guard queued > peakQueuedBytes else { return }
        peakQueuedBytes = queued
        probe?.record(queued)
    }
}
