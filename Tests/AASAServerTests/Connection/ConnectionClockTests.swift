import NIOCore
import Testing

@testable import AASAServer

/// Which of a connection's deadlines applies, with made-up times.
@Suite("Connection clock")
struct ConnectionClockTests {
    static let limits = ConnectionLimits(
        headerTimeout: .seconds(10),
        idleTimeout: .seconds(60),
        sendTimeout: .seconds(5),
        idleShutdownGrace: .milliseconds(500),
        shutdownGrace: .seconds(8),
        maxHeaderBytes: 8192
    )
    static func at(_ seconds: Int64) -> NIODeadline { .uptimeNanoseconds(UInt64(seconds) * 1_000_000_000) }

    @Test func idleThenHeader() {
        var clock = ConnectionClock(limits: Self.limits, start: Self.at(100), handshake: false)
        #expect(clock.next == (Self.at(160), .idle))
        clock.headStarted(at: Self.at(130))
        clock.headStarted(at: Self.at(135))  // the first byte counts, not the latest
        #expect(clock.next == (Self.at(140), .header))
        clock.requestAnswered(at: Self.at(138))
        #expect(clock.next == (Self.at(198), .idle))
    }

    @Test func aTLSHandshakeIsTimedLikeAHead() {
        var clock = ConnectionClock(limits: Self.limits, start: Self.at(100), handshake: true)
        #expect(clock.next == (Self.at(110), .handshake))
        clock.handshakeCompleted(at: Self.at(101))
        #expect(clock.next == (Self.at(161), .idle))
    }

    @Test func queuedBytesThatDoNotMoveRunTheSendTimeout() {
        var clock = ConnectionClock(limits: Self.limits, start: Self.at(100), handshake: false)
        clock.observeQueued(70_000, at: Self.at(110))
        #expect(clock.next == (Self.at(115), .send))
        clock.observeQueued(70_000, at: Self.at(112))  // no progress
        #expect(clock.next == (Self.at(115), .send))
        clock.observeQueued(40_000, at: Self.at(114))  // progress
        #expect(clock.next == (Self.at(119), .send))
        clock.observeQueued(0, at: Self.at(116))
        #expect(clock.next == (Self.at(160), .idle))
    }

    @Test func shutdownGivesIdleConnectionsAGraceAndEveryoneADeadline() {
        var clock = ConnectionClock(limits: Self.limits, start: Self.at(180), handshake: false)
        clock.quiesce(at: Self.at(200))
        #expect(clock.next.expiry == .quiesce)
        #expect(clock.next.deadline == Self.at(200) + .milliseconds(500))
        clock.headStarted(at: Self.at(200))
        #expect(clock.next == (Self.at(208), .shutdown))
    }

    @Test func aClosingConnectionOnlyWaitsForItsAnswersAndLingers() {
        var clock = ConnectionClock(limits: Self.limits, start: Self.at(100), handshake: false)
        clock.headStarted(at: Self.at(100))
        clock.beginClosing()
        #expect(clock.next.deadline == .distantFuture)
        clock.linger(at: Self.at(120))
        #expect(clock.next == (Self.at(122), .linger))
    }
}
