import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import AASAServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// HostileInputTests, continued: other protocols on the plain port and slow clients.
extension HostileInputTests {
    // MARK: Other protocols

    /// The HTTP/2 connection preface (prior knowledge, RFC 9113 §3.3) on an
    /// HTTP/1.1-only port: refused and closed, no 200.
    @Test func http2PrefaceIsRefused() async throws {
        try await Self.serving { origin in
            var preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
            // An empty SETTINGS frame, as a real client sends right after.
            preface += [0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00]
            let outcome = try await origin.send(preface, untilClosed: true)
            #expect(outcome.statuses.allSatisfy { $0 == 400 || $0 == 505 }, "\(outcome.statuses)")
            #expect(outcome.statuses.count <= 1)
            #expect(outcome.closed)
        }
    }

    /// A TLS ClientHello on the plain-text port: refused and closed.
    @Test func tlsClientHelloOnThePlainPortIsRefused() async throws {
        try await Self.serving { origin in
            let outcome = try await origin.send(Self.clientHello(serverName: "a.example"), untilClosed: true)
            #expect(outcome.statuses.allSatisfy { $0 == 400 }, "\(outcome.statuses)")
            #expect(outcome.statuses.count <= 1)
            #expect(outcome.closed)
        }
    }

    /// A request asking to upgrade (`Connection: Upgrade` + `Upgrade:`, or
    /// CONNECT) makes NIO's decoder stop parsing after it: every later byte
    /// on the connection would be buffered, unparsed, until a timeout (a
    /// probe buffered 1.5 GB from one client in 2.6 s). The origin upgrades
    /// to nothing, so it must answer and close.
    @Test(arguments: [
        (
            "websocket",
            "GET \(aasaPath) HTTP/1.1\r\nHost: a.example\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n"
        ),
        (
            "h2c",
            "GET \(aasaPath) HTTP/1.1\r\nHost: a.example\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n"
        ),
        ("CONNECT", "CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\n"),
    ])
    func upgradeRequestsAreAnsweredAndClosed(_ name: String, request: String) async throws {
        try await Self.serving { origin in
            let junk = String(repeating: "x", count: 64 * 1024)
            let outcome = try await origin.send(request + junk, untilClosed: true, deadline: .seconds(3))
            #expect(outcome.statuses.count <= 1, "\(name)")
            #expect(outcome.closed, "\(name)")
        }
    }

    // MARK: Slow clients

    /// A client sending one byte every 100 ms (about 23 s for its head)
    /// never completes it: the server closes the connection at
    /// `limits.headerTimeout` (1 s) although bytes keep arriving, before the
    /// last byte is sent, with nothing sent back. An order of events, not a
    /// time: the close must come while the client is still sending.
    @Test func slowlorisIsClosedAtTheHeaderTimeout() async throws {
        let site = try Self.site()
        let limits = ServerConfiguration.Limits(headerTimeout: .seconds(1))
        try await RunningOrigin.with(site.configuration(limits: limits)) { origin in
            let channel = try await origin.client.connect()
            let request = get("a.example", headers: ["X-Pad: " + String(repeating: "p", count: 200)])
            let (sentWhole, received) = try await withDeadline(.seconds(60)) {
                try await channel.executeThenClose { inbound, outbound in
                    await withTaskGroup(of: Bool.self) { group in
                        group.addTask {
                            // Pacing of the slow client, not synchronisation.
                            for byte in request.utf8 {
                                do {
                                    try await outbound.write(ByteBuffer(bytes: [byte]))
                                    try await Task.sleep(for: .milliseconds(100))
                                } catch {
                                    return false
                                }
                            }
                            return true
                        }
                        var received = 0
                        do {
                            for try await chunk in inbound { received += chunk.readableBytes }
                        } catch {
                            // A reset is a close too.
                        }
                        group.cancelAll()
                        let sentWhole = await group.next() ?? true
                        return (sentWhole, received)
                    }
                }
            }
            #expect(!sentWhole, "the server waited for the whole slow head")
            #expect(received == 0, "the server closes without a response")
            try await Self.expectServing(origin)
        }
    }

    /// A partial head that arrives in the same read as a complete request is
    /// a request in progress too: the header timeout, not the (longer) idle
    /// timeout, must cut it off.
    @Test func aPartialHeadBehindACompleteRequestIsHeldToTheHeaderTimeout() async throws {
        let site = try Self.site()
        // An idle timeout no run of the suite reaches: a close within the
        // wait's deadline can only be the header timeout's.
        let limits = ServerConfiguration.Limits(headerTimeout: .seconds(1), idleTimeout: .seconds(3600))
        try await RunningOrigin.with(site.configuration(limits: limits)) { origin in
            let outcome = try await origin.send(
                get("a.example") + "GET \(Self.aasaPath) HTTP/1.1\r\nHo",
                untilClosed: true,
                deadline: .seconds(60)
            )
            #expect(outcome.statuses == [200])
            #expect(outcome.closed)
        }
    }

    /// 1,000 connections each holding a partial request head (and trickling
    /// a byte now and then) while a normal client connects: its request is
    /// answered with 200 while every slow connection is still open, so it
    /// did not wait for the header timeout to clear them (an order, not a
    /// time: a one-second bound failed on a loaded CI machine). Then every
    /// slow connection is closed by the server at the header timeout.
    @Test(.timeLimit(.minutes(2))) func aThousandSlowClientsDoNotStopANormalOne() async throws {
        let count = Self.affordableConnections(wanted: 1000)
        let site = try Self.site()
        let limits = ServerConfiguration.Limits(headerTimeout: .seconds(10))
        try await RunningOrigin.with(site.configuration(limits: limits)) { origin in
            let slow = try await Self.openSlowConnections(count, port: origin.port)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await Self.trickle(to: slow) }

                let stillOpen = slow.filter(\.isActive).count
                let response = try await origin.client.exchange(get("a.example")).first
                let openWhenAnswered = slow.filter(\.isActive).count
                #expect(openWhenAnswered == count, "answered after the server closed some slow connections")
                #expect(response?.status == 200)
                #expect(response?.bodyText.contains("com.a.app") == true)
                // The normal request really competed with all of them.
                #expect(stillOpen == count, "only \(stillOpen) of \(count) slow connections were open")

                // The server, not the client, ends every slow connection.
                try await withDeadline(.seconds(30)) {
                    for channel in slow { try? await channel.closeFuture.get() }
                }
                group.cancelAll()
            }
            try await Self.expectServing(origin)
        }
    }
}
