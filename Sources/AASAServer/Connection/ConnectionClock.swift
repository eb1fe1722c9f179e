import NIOCore

/// The clocks of one connection, nginx-style, as plain values: which
/// deadline applies now and what it means when it passes. No I/O; the
/// connection's timer asks it, and tests drive it with made-up times.
///
/// - A request head (or a TLS handshake) under way: the header timeout from
///   its first byte (a client sending one byte a second is cut off).
/// - Between requests: the idle timeout from the last answer.
/// - Responses queued and not moving: the send timeout from the last progress.
/// - Shutting down: an idle connection gets a short grace, every connection
///   the shutdown grace; a closing one lingers for a bounded time.
struct ConnectionClock {
    /// Why a connection's time ran out.
    enum Expiry: String, Sendable {
        case handshake = "handshake-timeout"
        case header = "header-timeout"
        case idle = "idle-timeout"
        case send = "send-timeout"
        case quiesce = "shutdown-idle"
        case shutdown = "shutdown-deadline"
        case linger = "linger-end"
    }

    let limits: ConnectionLimits
    /// When the head (or handshake) under way began, if one is.
    private(set) var headStarted: NIODeadline?
    private(set) var handshaking = false
    private var lastActivity: NIODeadline
    /// Since when queued responses have not moved, if any are queued.
    private var stalledSince: NIODeadline?
    private var queuedAtLastCheck = 0
    private var quiesceIdleDeadline: NIODeadline?
    private var shutdownDeadline: NIODeadline?
    private var lingerDeadline: NIODeadline?
    /// Finishing: only the send timeout, the linger time and the shutdown
    /// grace still apply.
    private var closing = false

    init(limits: ConnectionLimits, start: NIODeadline, handshake: Bool) {
        self.limits = limits
        self.lastActivity = start
        if handshake {
            handshaking = true
            headStarted = start
        }
    }

    var isRequestInProgress: Bool { headStarted != nil }

    mutating func headStarted(at now: NIODeadline) {
        if headStarted == nil { headStarted = now }
    }

    /// A head was answered: the connection is idle from now.
    mutating func requestAnswered(at now: NIODeadline) {
        headStarted = nil
        lastActivity = now
    }

    mutating func handshakeCompleted(at now: NIODeadline) {
        guard handshaking else { return }
        handshaking = false
        headStarted = nil
        lastActivity = now
    }

    /// The bytes queued for the socket, looked at when the timer wakes or
    /// the connection stops being writable: any decrease is progress.
    mutating func observeQueued(_ queued: Int, at now: NIODeadline) {
        if queued == 0 {
            stalledSince = nil
        } else if stalledSince == nil || queued < queuedAtLastCheck {
            stalledSince = now
        }
        queuedAtLastCheck = queued
    }

    mutating func quiesce(at now: NIODeadline) {
        guard shutdownDeadline == nil else { return }
        quiesceIdleDeadline = now + limits.idleShutdownGrace
        shutdownDeadline = now + limits.shutdownGrace
    }

    mutating func beginClosing() {
        closing = true
        headStarted = nil
        handshaking = false
    }

    mutating func linger(at now: NIODeadline) {
        lingerDeadline = now + limits.lingerTime
    }

    /// The earliest deadline that applies, and what passing it means.
    var next: (deadline: NIODeadline, expiry: Expiry) {
        var next = (deadline: NIODeadline.distantFuture, expiry: Expiry.idle)
        func consider(_ deadline: NIODeadline?, _ expiry: Expiry) {
            if let deadline, deadline < next.deadline { next = (deadline, expiry) }
        }
        if let lingerDeadline {
            consider(lingerDeadline, .linger)
        } else {
            consider(stalledSince.map { $0 + limits.sendTimeout }, .send)
            if closing {
                // Sending the last answers: only the send timeout applies.
            } else if let headStarted {
                consider(headStarted + limits.headerTimeout, handshaking ? .handshake : .header)
            } else if stalledSince == nil {
                consider(lastActivity + limits.idleTimeout, .idle)
                consider(quiesceIdleDeadline, .quiesce)
            }
        }
        consider(shutdownDeadline, .shutdown)
        return next
    }
}
