import NIOCore
import NIOHTTP1

/// The two clocks of a connection, nginx-style: while idle between requests
/// the keep-alive timeout runs; from the first byte of a request until its
/// head is complete the (shorter) header timeout runs. A client sending one
/// byte a second is cut off by the second, an idle one by the first.
///
/// One timer per connection that wakes at least every `min(header, idle)`
/// and checks both clocks, so a request costs two clock reads and no
/// scheduling; a deadline is enforced within one such interval. Time is the
/// event loop's, so tests on an embedded loop can advance it.
final class ConnectionTimeouts {
    /// The connection's loop, kept rather than asked of the context per read:
    /// each `context.eventLoop` is a reference-counted existential.
    private let eventLoop: any EventLoop
    let headerTimeout: TimeAmount
    let idleTimeout: TimeAmount
    private(set) var requestInProgress = false
    private var requestStarted = NIODeadline.uptimeNanoseconds(0)
    private var lastActivity = NIODeadline.uptimeNanoseconds(0)
    private var timer: Scheduled<Void>?

    private let checkInterval: TimeAmount

    init(eventLoop: any EventLoop, headerTimeout: TimeAmount, idleTimeout: TimeAmount) {
        self.eventLoop = eventLoop
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.checkInterval = min(headerTimeout, idleTimeout)
    }

    /// Bytes arrived; if no request was under way, one starts now.
    @inline(__always)
    func bytesReceived() {
        if !requestInProgress {
            requestInProgress = true
            requestStarted = eventLoop.now
        }
    }

    /// A complete request was answered; the connection is idle again.
    @inline(__always)
    func requestCompleted() {
        requestInProgress = false
        lastActivity = eventLoop.now
    }

    func start(context: ChannelHandlerContext) {
        lastActivity = context.eventLoop.now
        schedule(context: context, at: lastActivity + checkInterval)
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
        let now = context.eventLoop.now
        let deadline = requestInProgress ? requestStarted + headerTimeout : lastActivity + idleTimeout
        if deadline <= now {
            timer = nil
            context.close(promise: nil)
        } else {
            schedule(context: context, at: min(deadline, now + checkInterval))
        }
    }
}

/// NIO's HTTP/1 request decoder, wrapped to tell ``ConnectionTimeouts`` when
/// a request's first bytes arrive. Every byte goes to llhttp unchanged; the
/// wrapper only looks at each read's bytes before handing them over, which
/// costs no pipeline hop (a separate handler in front of the decoder did).
struct TimedRequestDecoder: ByteToMessageDecoder {
    typealias InboundOut = HTTPServerRequestPart

    private let http: HTTPRequestDecoder
    private let timeouts: ConnectionTimeouts
    /// The last four bytes of the stream so far.
    private var tail: UInt32 = 0

    init(_ http: HTTPRequestDecoder, timeouts: ConnectionTimeouts) {
        self.http = http
        self.timeouts = timeouts
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        timeouts.bytesReceived()
        for byte in buffer.readableBytesView.suffix(4) {
            tail = tail << 8 | UInt32(byte)
        }
        let state = try http.decode(context: context, buffer: &buffer)
        // Every request the origin answers ends with its head (a body is
        // refused and closes): a stream that does not end in CRLF CRLF has a
        // request under way, even when this read also completed one.
        if tail != 0x0D0A_0D0A {
            timeouts.bytesReceived()
        }
        return state
    }

    mutating func decodeLast(
        context: ChannelHandlerContext,
        buffer: inout ByteBuffer,
        seenEOF: Bool
    ) throws -> DecodingState {
        try http.decodeLast(context: context, buffer: &buffer, seenEOF: seenEOF)
    }

    mutating func decoderAdded(context: ChannelHandlerContext) {
        http.decoderAdded(context: context)
    }

    mutating func decoderRemoved(context: ChannelHandlerContext) {
        http.decoderRemoved(context: context)
    }
}
