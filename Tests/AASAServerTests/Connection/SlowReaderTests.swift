import Foundation
import NIOCore
import Testing

@testable import AASAServer

/// Clients that pipeline and do not read (or read slowly, or stop sending)
/// against the real server over loopback: memory per connection stays
/// under its stated bound, abusers are disconnected, and every answer the
/// server produced arrives whole.
@Suite("Slow readers", .serialized)
struct SlowReaderTests {
    static let aasaPath = "/.well-known/apple-app-site-association"

    /// A site whose file is ~8 KB (or ~100 KB), so each answer is >100× its request.
    static func site(paths count: Int = 180) throws -> TemporarySite {
        let site = try TemporarySite()
        let paths = (0..<count).map { "{\"/\":\"/product/\($0)/*\"}" }.joined(separator: ",")
        let file = """
            {"applinks":{"details":[{"appIDs":["ABCDE12345.com.a.app"],"components":[\(paths)]}]}}
            """
        try site.write(file, host: "a.example")
        return site
    }

    /// The bound the server promises for one connection: queued answers up
    /// to the high water mark plus the one that crossed it, plus the input
    /// budget of held requests.
    static func bound(_ origin: RunningOrigin) async throws -> (bound: Int, response: Int) {
        let exchange = try await origin.client.exchange(get("a.example"))
        let response = try #require(exchange.first)
        // Status line, Date and the other header lines: under 1 KB.
        let size = response.body.count + 1024
        let limits = ConnectionLimits(origin.origin.configuration.limits, shutdownGrace: .seconds(8))
        return (limits.queuedBytesBound(largestResponse: size), size)
    }

    /// Thousands of pipelined GETs with a 4 KB receive window and no reads:
    /// the server holds at most its bound for the connection, then drops it
    /// for pipelining past its input budget.
    @Test(.timeLimit(.minutes(1))) func pipeliningWithoutReadingIsBoundedAndDisconnected() async throws {
        let site = try Self.site()
        let limits = ServerConfiguration.Limits(sendTimeout: .seconds(30))
        try await RunningOrigin.with(site.configuration(limits: limits)) { origin in
            let (bound, response) = try await Self.bound(origin)
            let client = try await RawClient.connect(port: origin.port)
            client.write(String(repeating: get("a.example"), count: 5000))
            try await withDeadline(.seconds(20)) { try await client.waitUntilClosed() }
            let peak = origin.origin.queuedBytes.peakQueuedBytes
            #expect(peak > 0, "the connection never stalled: the test did not test")
            #expect(peak <= bound, "held \(peak) bytes; the bound is \(bound)")
            // The answers sent are at most what the socket buffers took.
            #expect(peak < 5000 * response)
            try await HostileInputTests.expectServing(origin)
        }
    }

    /// A client that sends a few requests and then never reads is dropped
    /// after `limits.sendTimeout` without progress, within its bound.
    @Test(.timeLimit(.minutes(1))) func aClientThatStopsReadingIsDroppedAfterTheSendTimeout() async throws {
        // Answers of ~100 KB: far more than the kernel's socket buffers take.
        let site = try Self.site(paths: 4000)
        let limits = ServerConfiguration.Limits(sendTimeout: .seconds(1))
        try await RunningOrigin.with(site.configuration(limits: limits)) { origin in
            let (bound, _) = try await Self.bound(origin)
            let client = try await RawClient.connect(port: origin.port)
            // ~7 KB of requests (under the input budget), ~10 MB of answers.
            client.write(String(repeating: get("a.example"), count: 100))
            try await withDeadline(.seconds(20)) { try await client.waitUntilClosed() }
            let peak = origin.origin.queuedBytes.peakQueuedBytes
            #expect(peak > 0)
            #expect(peak <= bound, "held \(peak) bytes; the bound is \(bound)")
            try await HostileInputTests.expectServing(origin)
        }
    }

    /// RFC 9112 §9.6: N pipelined GETs, then `shutdown(SHUT_WR)`: all N
    /// answers arrive whole, then a clean end of stream.
    @Test(.timeLimit(.minutes(1))) func aHalfClosedPipelineGetsEveryAnswerWhole() async throws {
        let site = try Self.site()
        try await RunningOrigin.with(site.configuration()) { origin in
            let client = try await RawClient.connect(port: origin.port, receiveBuffer: 1 << 20, autoRead: true)
            client.write(String(repeating: get("a.example"), count: 50))
            try await client.shutdownOutput()
            try await withDeadline(.seconds(20)) { try await client.waitUntilClosed() }
            #expect(client.responses.count == 50)
            #expect(client.responses.allSatisfy { $0.status == 200 && $0.bodyText.contains("/product/179/*") })
            #expect(client.trailingBytes == 0, "the last answer was cut")
            #expect(client.ending == .endOfStream)
        }
    }

    /// A slow-reading pipeliner whose last request never completes: the
    /// header timeout ends the connection after every answer it was sent
    /// arrived whole, with an end of stream, not a reset.
    @Test(.timeLimit(.minutes(1))) func aHeaderTimeoutDeliversTheAnswersOfASlowReader() async throws {
        let site = try Self.site()
        let limits = ServerConfiguration.Limits(headerTimeout: .seconds(1), sendTimeout: .seconds(10))
        try await RunningOrigin.with(site.configuration(limits: limits)) { origin in
            let client = try await RawClient.connect(port: origin.port)
            client.write(String(repeating: get("a.example"), count: 60) + "GET \(Self.aasaPath) HTTP/1.1\r\nHo")
            try await withDeadline(.seconds(30)) {
                // Pacing of the slow reader, not synchronisation: ~200 KB/s.
                while client.channel.isActive {
                    client.readOnce()
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            #expect(client.responses.count == 60)
            #expect(client.trailingBytes == 0, "an answer was cut")
            #expect(client.ending == .endOfStream)
        }
    }
}
