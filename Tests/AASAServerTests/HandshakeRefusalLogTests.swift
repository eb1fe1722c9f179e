import Logging
import NIOConcurrencyHelpers
import NIOCore
import Testing

@testable import AASAServer

/// A handshake naming a host we do not serve is anyone's to send: the
/// refusal line is written at most once per interval and reason, with how
/// many handshakes it stands for.
@Suite("TLS handshake refusal log")
struct HandshakeRefusalLogTests {
    @Test func aFloodOfRefusalsIsOneLinePerIntervalWithTheCount() {
        let logs = CapturedLogs()
        let clock = NIOLockedValueBox(NIODeadline.uptimeNanoseconds(1_000_000_000))
        let refusals = HandshakeRefusalLog(logger: logs.logger, interval: .seconds(10)) {
            clock.withLockedValue { $0 }
        }
        for index in 0..<1000 {
            refusals.record(serverName: "probe\(index).example", snapshot: .empty)
        }
        var lines = logs.take()
        #expect(lines.count == 1)
        #expect(lines.first?.metadata["count"] == "1")
        #expect(lines.first?.metadata["server_name"] == "probe0.example")

        clock.withLockedValue { $0 = $0 + .seconds(10) }
        refusals.record(serverName: "late.example", snapshot: .empty)
        lines = logs.take()
        #expect(lines.count == 1)
        #expect(lines.first?.metadata["count"] == "1000")
        #expect(lines.first?.metadata["server_name"] == "late.example")
    }

    /// Each reason has its own limit: a flood of unknown names does not
    /// hide the first client without SNI.
    @Test func eachReasonIsLimitedOnItsOwn() {
        let logs = CapturedLogs()
        let refusals = HandshakeRefusalLog(logger: logs.logger) { .uptimeNanoseconds(1) }
        for _ in 0..<100 { refusals.record(serverName: "probe.example", snapshot: .empty) }
        refusals.record(serverName: nil, snapshot: .empty)
        let messages = logs.take().map(\.message)
        #expect(messages.count == 2)
        #expect(messages.last?.contains("no server name (SNI)") == true)
    }
}
