import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOExtras
import Testing

@testable import AASAServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 11 item 2: when `accept` fails (EMFILE: out of descriptors) the
/// listener pauses accepting instead of retrying at once, forever, at 100 %
/// CPU. The listening pipeline is built by the same function the server
/// uses, on an embedded channel with a virtual clock.
@Suite("Accept backoff")
struct AcceptBackoffTests {
    /// Counts the reads that reach the socket: each read is one `accept` pass.
    final class AcceptCounter: ChannelOutboundHandler {
        typealias OutboundIn = Never
        let reads = NIOLockedValueBox(0)

        func read(context: ChannelHandlerContext) {
            reads.withLockedValue { $0 += 1 }
            context.read()
        }
    }

    @Test func acceptingPausesAfterEMFILEAndResumes() throws {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(loop: loop)
        let counter = AcceptCounter()
        let failures = NIOLockedValueBox<[IOError]>([])
        try channel.pipeline.syncOperations.addHandler(counter)
        // A long backoff: the handler measures it on the real clock, so the
        // read below must fall inside it however slow the machine is.
        let backoff = TimeAmount.seconds(60)
        try ListeningServer.configureListener(
            channel,
            quiesce: ServerQuiescingHelper(group: loop),
            backoff: backoff
        ) { error in failures.withLockedValue { $0.append(error) } }

        channel.read()
        #expect(counter.reads.withLockedValue { $0 } == 1, "accepting before any failure")

        channel.pipeline.fireErrorCaught(IOError(errnoCode: EMFILE, reason: "accept"))
        #expect(failures.withLockedValue { $0.map(\.errnoCode) } == [EMFILE])
        channel.read()
        channel.read()
        #expect(counter.reads.withLockedValue { $0 } == 1, "no accept while backing off")

        // The virtual clock passes the backoff: one accept pass resumes.
        loop.advanceTime(to: .now() + backoff + .seconds(1))
        #expect(counter.reads.withLockedValue { $0 } == 2, "accepting resumes after the backoff")
        _ = try? channel.finish()
    }

    /// A failing accept is logged, but at most once per interval with the
    /// number of failures since the last line, not once per retry.
    @Test func acceptFailuresAreLoggedRateLimited() {
        let log = CapturedLogs()
        let clock = NIOLockedValueBox(NIODeadline.uptimeNanoseconds(0))
        let failures = RateLimitedLog(
            logger: log.logger,
            message: "accept failed; pausing accepts",
            interval: .seconds(10),
            now: { clock.withLockedValue { $0 } }
        )
        for _ in 0..<1000 { failures.record(["server": "http"]) }
        #expect(log.entries("accept failed; pausing accepts").map { $0.metadata["count"] } == ["1"])

        clock.withLockedValue { $0 = $0 + .seconds(10) }
        failures.record(["server": "http"])
        let lines = log.entries("accept failed; pausing accepts")
        #expect(lines.map { $0.metadata["count"] } == ["1", "1000"], "the 999 suppressed ones, and this one")
        #expect(lines.allSatisfy { $0.metadata["server"] == "http" })
    }
}
