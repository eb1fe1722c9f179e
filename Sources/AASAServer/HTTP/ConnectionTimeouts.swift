import NIOCore

/// The two clocks of a connection, nginx-style: while idle between requests
/// the keep-alive timeout runs; from the first byte of a request until its
/// head is complete the (shorter) header timeout runs. A client sending one
/// byte a second is cut off by the second, an idle one by the first.
///
/// One timer per connection, rescheduled only when it fires, so a request
/// costs two clock reads and no scheduling.
final class ConnectionTimeouts {
    let headerTimeout: TimeAmount
    let idleTimeout: TimeAmount
    private(set) var requestInProgress = false
    private var requestStarted = NIODeadline.now()
    private var lastActivity = NIODeadline.now()
    private var timer: Scheduled<Void>?

    init(headerTimeout: TimeAmount, idleTimeout: TimeAmount) {
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
    }

    /// Bytes arrived; if no request was under way, one starts now.
    @inline(__always)
    func bytesReceived() {
        if !requestInProgress {
            requestInProgress = true
            requestStarted = .now()
        }
    }

    /// A complete request was answered; the connection is idle again.
    @inline(__always)
    func requestCompleted() {
        requestInProgress = false
        lastActivity = .now()
    }

    func start(context: ChannelHandlerContext) {
        lastActivity = .now()
        schedule(context: context, at: lastActivity + idleTimeout)
    }

    func stop() {
        timer?.cancel()
        timer = nil
    }

    private func schedule(context: ChannelHandlerContext, at deadline: NIODeadline) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (timeouts, context) = loopBound.value
            timeouts.fire(context: context)
        }
    }

    private func fire(context: ChannelHandlerContext) {
        let deadline = requestInProgress ? requestStarted + headerTimeout : lastActivity + idleTimeout
        if deadline <= .now() {
            timer = nil
            context.close(promise: nil)
        } else {
            schedule(context: context, at: deadline)
        }
    }
}

/// Sits before NIO's HTTP decoder and tells ``ConnectionTimeouts`` when a
/// request's first bytes arrive. It passes every byte through untouched.
final class RequestStartDetector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeouts: ConnectionTimeouts

    init(timeouts: ConnectionTimeouts) {
        self.timeouts = timeouts
    }

    @inline(__always)
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        timeouts.bytesReceived()
        context.fireChannelRead(data)
    }
}
