import Logging
import NIOCore
import NIOExtras
import NIOTLS

/// The first handler of every connection (after TLS), serving and admin
/// alike: it decides how much of the client's input reaches the request
/// decoder, and when and how the connection ends.
///
/// - **One request at a time, within budget.** NIO's decoder parses
///   whatever it is given and answers every request in it at once, each
///   answer far larger than its request. The guard hands it one head at a
///   time, and none while the socket is not writable (responses queued past
///   ``ConnectionLimits/outputWaterMark``); what arrives meanwhile is held,
///   up to ``ConnectionLimits/inputBudget``, past which the connection is
///   dropped. Reading stops while held, so TCP pushes back on the client.
/// - **Clocks.** See ``ConnectionClock``.
/// - **Flushing.** The answers to a socket read's heads are flushed once,
///   here, when the read is complete; the event goes no further.
/// - **Ending on a message boundary.** A closing connection (a `Connection:
///   close` answer, a header timeout, shutdown, the client's end of input)
///   sends everything already answered, shuts its write side and reads and
///   drops input for a bounded time before closing, so the kernel never
///   resets it with answers unread (RFC 9112 §9.6). The ending and the
///   timer are in `ConnectionGuard+Ending.swift`.
///
/// Inbound-only: an outbound handler would sit on every write and flush.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    let limits: ConnectionLimits
    let shutdown: ShutdownSignal
    let log: ConnectionLog
    private let handshake: Bool
    /// The channel's event loop, for ``now``: asking the context for its
    /// loop retains and releases it (once per head); a `let` of the guard
    /// is read without either.
    private let loop: any EventLoop
    /// Everything that changes, behind one pointer: a class's stored `var`s
    /// pay a dynamic exclusivity check per access, several per request.
    let state: UnsafeMutablePointer<ConnectionGuardState>

    /// - Parameters:
    ///   - handshake: the connection starts with a TLS handshake, which the
    ///     header timeout bounds like a request head.
    ///   - eventLoop: the loop of the channel the guard is added to.
    init(
        limits: ConnectionLimits,
        shutdown: ShutdownSignal,
        log: ConnectionLog,
        handshake: Bool,
        eventLoop: any EventLoop,
        probe: QueuedBytesProbe? = nil
    ) {
        self.limits = limits
        self.loop = eventLoop
        self.shutdown = shutdown
        self.log = log
        self.handshake = handshake
        state = .allocate(capacity: 1)
        state.initialize(
            to: ConnectionGuardState(
                clock: ConnectionClock(limits: limits, start: .uptimeNanoseconds(0), handshake: handshake),
                scanner: HeadScanner(maximumRequestLine: limits.maxHeaderBytes),
                input: HeldInput(budget: limits.inputBudget, probe: probe)
            )
        )
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    // MARK: Lifecycle

    func handlerAdded(context: ChannelHandlerContext) {
        state.pointee.context = context
        state.pointee.writable = context.channel.isWritable
        if context.channel.isActive { start(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopTimer()
        state.pointee.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.pointee.phase = .closed
        stopTimer()
        context.fireChannelInactive()
    }

    private func start(context: ChannelHandlerContext) {
        guard state.pointee.timer == nil, state.pointee.phase == .open else { return }
        log.connected(remote: context.channel.remoteAddress)
        state.pointee.clock = ConnectionClock(limits: limits, start: context.eventLoop.now, handshake: handshake)
        schedule(context: context, at: context.eventLoop.now + limits.checkInterval)
        if shutdown.hasBegun { beginQuiescing(context: context) }
    }

    private var now: NIODeadline { loop.now }

    // MARK: Input

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard state.pointee.phase == .open else { return }  // closing: input is dropped
        let bytes = unwrapInboundIn(data)
        if state.pointee.input.isHeld {
            hold(bytes, context: context)
        } else {
            forward(bytes, context: context)
        }
    }

    /// Hands `bytes` to the decoder one head at a time while the socket is
    /// writable; holds the rest. Consumed: a borrowed buffer would be copied
    /// to be sliced, a retain and a release more per read.
    private func forward(_ bytes: consuming ByteBuffer, context: ChannelHandlerContext) {
        var input = bytes
        while input.readableBytes > 0, state.pointee.phase == .open {
            guard state.pointee.writable else {
                stall(context: context)
                hold(input, context: context)
                return
            }
            let wasInHead = state.pointee.scanner.isInHead
            switch input.withUnsafeReadableBytes({ state.pointee.scanner.scan($0) }) {
            case .headEnd(let count) where count == input.readableBytes:
                // The usual read, one whole head: moved on as it is, not
                // copied or sliced (each a retain and a release more).
                context.fireChannelRead(wrapInboundOut(consume input))
                state.pointee.clock.requestAnswered(at: now)
                if state.pointee.quiescing { finish() }
                return
            case .headEnd(let count):
                let head = input.readSlice(length: count) ?? input
                context.fireChannelRead(wrapInboundOut(head))
                // Every head is answered as it is parsed: the answer is written.
                state.pointee.clock.requestAnswered(at: now)
                if state.pointee.quiescing { finish() }
            case .none:
                if !wasInHead && state.pointee.scanner.isInHead { state.pointee.clock.headStarted(at: now) }
                context.fireChannelRead(wrapInboundOut(consume input))
                return
            case .requestLineTooLong:
                context.fireErrorCaught(RequestHeadError.requestLineTooLong)
                return
            case .requestLineMalformed:
                context.fireErrorCaught(RequestHeadError.malformedRequestLine)
                return
            }
        }
    }

    /// The socket read's batch is over, and every head in it was answered
    /// as it was handed on (or is answered later by a handler that flushes
    /// then): flushed here, where the event stops, instead of passing it
    /// through the decoder to the answering handler, two pipeline hops per read.
    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }

    private func hold(_ bytes: ByteBuffer, context: ChannelHandlerContext) {
        guard state.pointee.input.hold(bytes) else {
            log.closed(.inputOverBudget)
            abort()
            return
        }
    }

    /// Stops parsing and reading until the queued responses drain.
    private func stall(context: ChannelHandlerContext) {
        guard !state.pointee.input.isHeld else { return }
        let queued = context.channel.queuedBytes
        state.pointee.input.stall(queued: queued)
        context.channel.setAutoRead(false)
        state.pointee.clock.observeQueued(queued, at: context.eventLoop.now)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        let writable = context.channel.isWritable
        state.pointee.writable = writable
        if !writable {
            if state.pointee.phase == .open { stall(context: context) }
        } else if state.pointee.input.isHeld {
            resume(context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    /// The socket drained: parse what was held, flush the answers, read again.
    private func resume(context: ChannelHandlerContext) {
        state.pointee.input.resume()
        guard state.pointee.phase == .open else { return }
        forward(state.pointee.input.take(), context: context)
        // These answers came from no socket read: no read-complete flushes them.
        context.flush()
        guard !state.pointee.input.isHeld, state.pointee.phase == .open else { return }
        if state.pointee.inputEnded {
            endOfInput(context: context)
        } else {
            context.channel.setAutoRead(true)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case ChannelEvent.inputClosed:
            state.pointee.inputEnded = true
            switch state.pointee.phase {
            case .open: if !state.pointee.input.isHeld { endOfInput(context: context) }
            case .lingering: close()
            case .finishing, .closed: break
            }
        case is ChannelShouldQuiesceEvent:
            beginQuiescing(context: context)
        case TLSUserEvent.handshakeCompleted:
            state.pointee.clock.handshakeCompleted(at: context.eventLoop.now)
            context.fireUserInboundEventTriggered(event)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// The client sent everything it will: let the decoder see the end (a
    /// partial head becomes a parse error and its 400), then finish.
    private func endOfInput(context: ChannelHandlerContext) {
        context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        finish()
    }
}

/// A ``ConnectionGuard``'s mutable state, a plain value the guard keeps
/// behind a pointer.
struct ConnectionGuardState {
    enum Phase {
        case open
        /// Sending what was answered, then shutting the write side.
        case finishing
        /// Write side shut; reading and dropping input until EOF or the linger time.
        case lingering
        case closed
    }

    var phase = Phase.open
    var context: ChannelHandlerContext?
    var timer: Scheduled<Void>?
    var clock: ConnectionClock
    var scanner: HeadScanner
    /// Input held while responses are queued past the water mark.
    var input: HeldInput
    /// Writability as last reported: asking the channel per head retains it.
    var writable = true
    var inputEnded = false
    var quiescing = false
    /// Answers a handler writes later than the head's read (the admin
    /// port's `/status`, built off the loop): an end (a half-close, a
    /// shutdown, a closing answer) waits for them instead of cutting them off.
    var pendingAnswers = 0
    var finishWhenAnswered = false
}
