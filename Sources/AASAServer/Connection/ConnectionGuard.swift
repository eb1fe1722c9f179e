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
/// - **Clocks.** See ``ConnectionClock``. **Ending on a message boundary.** A closing connection (a `Connection:
///   close` answer, a header timeout, shutdown, the client's end of input)
///   sends everything already answered, shuts its write side and reads and
///   drops input for a bounded time before closing, so the kernel never
///   resets it with answers unread (RFC 9112 §9.6).
///
/// Inbound-only: an outbound handler would sit on every write and flush.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private enum Phase {
        case open
        /// Sending what was answered, then shutting the write side.
        case finishing
        /// Write side shut; reading and dropping input until EOF or the linger time.
        case lingering
        case closed
    }

    private let limits: ConnectionLimits
    private let shutdown: ShutdownSignal
    private let log: ConnectionLog
    private let handshake: Bool
    private var clock: ConnectionClock
    private var scanner: HeadScanner
    private var phase = Phase.open
    private var context: ChannelHandlerContext?
    private var timer: Scheduled<Void>?
    /// Input held while responses are queued past the water mark.
    private var input: HeldInput
    /// Writability as last reported: asking the channel per head retains it.
    private var writable = true
    private var inputEnded = false
    private var quiescing = false

    /// - Parameter handshake: the connection starts with a TLS handshake,
    ///   which the header timeout bounds like a request head.
    init(
        limits: ConnectionLimits,
        shutdown: ShutdownSignal,
        log: ConnectionLog,
        handshake: Bool,
        probe: QueuedBytesProbe? = nil
    ) {
        self.limits = limits
        self.input = HeldInput(budget: limits.inputBudget, probe: probe)
        self.shutdown = shutdown
        self.log = log
        self.handshake = handshake
        self.clock = ConnectionClock(limits: limits, start: .uptimeNanoseconds(0), handshake: handshake)
        self.scanner = HeadScanner(maximumRequestLine: limits.maxHeaderBytes)
    }

    // MARK: Lifecycle

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        writable = context.channel.isWritable
        if context.channel.isActive { start(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopTimer()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        phase = .closed
        stopTimer()
        context.fireChannelInactive()
    }

    private func start(context: ChannelHandlerContext) {
        guard timer == nil, phase == .open else { return }
        log.connected(remote: context.channel.remoteAddress)
        clock = ConnectionClock(limits: limits, start: context.eventLoop.now, handshake: handshake)
        schedule(context: context, at: context.eventLoop.now + limits.checkInterval)
        if shutdown.hasBegun { beginQuiescing(context: context) }
    }

    // MARK: Input

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard phase == .open else { return }  // closing: input is dropped
        let bytes = unwrapInboundIn(data)
        if input.isHeld {
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
        while input.readableBytes > 0, phase == .open {
            guard writable else {
                stall(context: context)
                hold(input, context: context)
                return
            }
            let wasInHead = scanner.isInHead
            switch input.withUnsafeReadableBytes({ scanner.scan($0) }) {
            case .headEnd(let count) where count == input.readableBytes:
                // The usual read, one whole head: moved on as it is, not
                // copied or sliced (each a retain and a release more).
                context.fireChannelRead(wrapInboundOut(consume input))
                clock.requestAnswered(at: context.eventLoop.now)
                if quiescing { finish() }
                return
            case .headEnd(let count):
                let head = input.readSlice(length: count) ?? input
                context.fireChannelRead(wrapInboundOut(head))
                // Every head is answered as it is parsed: the answer is written.
                clock.requestAnswered(at: context.eventLoop.now)
                if quiescing { finish() }
            case .none:
                if !wasInHead && scanner.isInHead { clock.headStarted(at: context.eventLoop.now) }
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

    private func hold(_ bytes: ByteBuffer, context: ChannelHandlerContext) {
        guard input.hold(bytes) else {
            log.closed(.inputOverBudget)
            abort()
            return
        }
    }

    /// Stops parsing and reading until the queued responses drain.
    private func stall(context: ChannelHandlerContext) {
        guard !input.isHeld else { return }
        let queued = context.channel.queuedBytes
        input.stall(queued: queued)
        context.channel.setAutoRead(false)
        clock.observeQueued(queued, at: context.eventLoop.now)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        writable = context.channel.isWritable
        if !writable {
            if phase == .open { stall(context: context) }
        } else if input.isHeld {
            resume(context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    /// The socket drained: parse what was held, flush the answers, read again.
    private func resume(context: ChannelHandlerContext) {
        input.resume()
        guard phase == .open else { return }
        forward(input.take(), context: context)
        // The answering handler flushes on read-complete; these answers came
        // from no socket read, so tell it the batch is done.
        context.fireChannelReadComplete()
        guard !input.isHeld, phase == .open else { return }
        if inputEnded {
            endOfInput(context: context)
        } else {
            context.channel.setAutoRead(true)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case ChannelEvent.inputClosed:
            inputEnded = true
            switch phase {
            case .open: if !input.isHeld { endOfInput(context: context) }
            case .lingering: close()
            case .finishing, .closed: break
            }
        case is ChannelShouldQuiesceEvent:
            beginQuiescing(context: context)
        case TLSUserEvent.handshakeCompleted:
            clock.handshakeCompleted(at: context.eventLoop.now)
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

    // MARK: Ending

    /// Answers a handler writes later than the head's read (the admin
    /// port's `/status`, built off the loop): an end (a half-close, a
    /// shutdown, a closing answer) waits for them instead of cutting them off.
    private var pendingAnswers = 0
    private var finishWhenAnswered = false

    func answerPending() {
        pendingAnswers += 1
    }

    func answerWritten() {
        pendingAnswers -= 1
        guard pendingAnswers == 0, finishWhenAnswered else { return }
        finishWhenAnswered = false
        finish()
    }

    /// Ends the connection on a message boundary: sends what was answered,
    /// shuts the write side, lingers. Called by the answering handler after
    /// a closing response, and by the guard itself.
    func finish() {
        guard phase == .open, let context else { return }
        guard pendingAnswers == 0 else {
            finishWhenAnswered = true
            return
        }
        phase = .finishing
        clock.beginClosing()
        input.drop()
        // Keep reading (and dropping) so that unread input cannot turn the
        // close into a reset.
        context.channel.setAutoRead(true)
        let flushed = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(NIOAny(ByteBuffer()), promise: flushed)
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        flushed.futureResult.whenComplete { result in
            let handler = loopBound.value
            guard case .success = result else { return handler.abort() }
            handler.shutOutput()
        }
    }

    private func shutOutput() {
        guard phase == .finishing, let context else { return }
        guard !inputEnded else { return close() }
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.close(mode: .output).whenComplete { result in
            let handler = loopBound.value
            guard case .success = result, handler.phase == .finishing, let context = handler.context else {
                return handler.close()
            }
            handler.phase = .lingering
            handler.clock.linger(at: context.eventLoop.now)
            handler.rescheduleNow(context: context)
        }
    }

    /// Closes at once with a reset, dropping anything queued here and in
    /// the kernel: for clients that broke a limit. A plain close would leave
    /// the kernel retrying undelivered answers to a client that does not
    /// read (nginx's `reset_timedout_connection`).
    func abort() {
        guard phase != .closed, let context else { return }
        phase = .closed
        context.channel.reset()
    }

    private func close() {
        guard phase != .closed, let context else { return }
        phase = .closed
        context.close(promise: nil)
    }

    /// Graceful shutdown: finish after the answer under way; an idle
    /// connection gets a short grace (a request already on the wire is still
    /// answered); every connection ends by the shutdown grace.
    private func beginQuiescing(context: ChannelHandlerContext) {
        guard !quiescing else { return }
        quiescing = true
        clock.quiesce(at: context.eventLoop.now)
        rescheduleNow(context: context)
    }

    // MARK: Timer

    private func schedule(context: ChannelHandlerContext, at deadline: NIODeadline) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.fire(context: context)
        }
    }

    private func stopTimer() {
        timer?.cancel()
        timer = nil
    }

    /// For deadlines that just moved earlier than the next wake.
    private func rescheduleNow(context: ChannelHandlerContext) {
        guard timer != nil else { return }
        stopTimer()
        fire(context: context)
    }

    private func fire(context: ChannelHandlerContext) {
        timer = nil
        guard phase != .closed else { return }
        let now = context.eventLoop.now
        clock.observeQueued(context.channel.queuedBytes, at: now)
        let (deadline, expiry) = clock.next
        guard deadline <= now else {
            schedule(context: context, at: min(deadline, now + limits.checkInterval))
            return
        }
        // Keep the timer alive for whatever comes next (lingering, stalls).
        schedule(context: context, at: now + limits.checkInterval)
        expire(expiry)
    }

    private func expire(_ expiry: ConnectionClock.Expiry) {
        switch expiry {
        case .header:
            // Answers already generated for a pipelining client still go out.
            log.closed(.timeout(expiry))
            finish()
        case .handshake, .send, .shutdown:
            log.closed(.timeout(expiry))
            abort()
        case .idle, .quiesce, .linger:
            close()
        }
    }
}
