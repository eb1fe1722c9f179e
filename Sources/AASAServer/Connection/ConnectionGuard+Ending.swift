import NIOCore

/// How a ``ConnectionGuard``'s connection ends, and the timer that ends it
/// when one of its clocks runs out.
extension ConnectionGuard {
    // MARK: Ending

    /// An answer will be written later than its head's read.
    func answerPending() {
        state.pointee.pendingAnswers += 1
    }

    func answerWritten() {
        state.pointee.pendingAnswers -= 1
        guard state.pointee.pendingAnswers == 0, state.pointee.finishWhenAnswered else { return }
        state.pointee.finishWhenAnswered = false
        finish()
    }

    /// Ends the connection on a message boundary: sends what was answered,
    /// shuts the write side, lingers. Called by the answering handler after
    /// a closing response, and by the guard itself.
    func finish() {
        guard state.pointee.phase == .open, let context = state.pointee.context else { return }
        guard state.pointee.pendingAnswers == 0 else {
            state.pointee.finishWhenAnswered = true
            return
        }
        state.pointee.phase = .finishing
        state.pointee.clock.beginClosing()
        state.pointee.input.drop()
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
        guard state.pointee.phase == .finishing, let context = state.pointee.context else { return }
        guard !state.pointee.inputEnded else { return close() }
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.close(mode: .output).whenComplete { result in
            let handler = loopBound.value
            guard case .success = result, handler.state.pointee.phase == .finishing,
                let context = handler.state.pointee.context
            else {
                return handler.close()
            }
            handler.state.pointee.phase = .lingering
            handler.state.pointee.clock.linger(at: context.eventLoop.now)
            handler.rescheduleNow(context: context)
        }
    }

    /// Closes at once with a reset, dropping anything queued here and in
    /// the kernel: for clients that broke a limit. A plain close would leave
    /// the kernel retrying undelivered answers to a client that does not
    /// read (nginx's `reset_timedout_connection`).
    func abort() {
        guard state.pointee.phase != .closed, let context = state.pointee.context else { return }
        state.pointee.phase = .closed
        context.channel.reset()
    }

    func close() {
        guard state.pointee.phase != .closed, let context = state.pointee.context else { return }
        state.pointee.phase = .closed
        context.close(promise: nil)
    }

    /// Graceful shutdown: finish after the answer under way; an idle
    /// connection gets a short grace (a request already on the wire is still
    /// answered); every connection ends by the shutdown grace.
    func beginQuiescing(context: ChannelHandlerContext) {
        guard !state.pointee.quiescing else { return }
        state.pointee.quiescing = true
        state.pointee.clock.quiesce(at: context.eventLoop.now)
        rescheduleNow(context: context)
    }

    // MARK: Timer

    func schedule(context: ChannelHandlerContext, at deadline: NIODeadline) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        state.pointee.timer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.fire(context: context)
        }
    }

    func stopTimer() {
        state.pointee.timer?.cancel()
        state.pointee.timer = nil
    }

    /// For deadlines that just moved earlier than the next wake.
    private func rescheduleNow(context: ChannelHandlerContext) {
        guard state.pointee.timer != nil else { return }
        stopTimer()
        fire(context: context)
    }

    private func fire(context: ChannelHandlerContext) {
        state.pointee.timer = nil
        guard state.pointee.phase != .closed else { return }
        let now = context.eventLoop.now
        state.pointee.clock.observeQueued(context.channel.queuedBytes, at: now)
        let (deadline, expiry) = state.pointee.clock.next
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
