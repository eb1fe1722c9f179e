import NIOCore
import NIOPosix
import Testing

@testable import AASAServer

/// Request shapes from issue 11 item 10 and from our own attacks on the
/// origin, end to end on loopback: each gets the answer RFC 9112 asks for,
/// at once, and the origin keeps serving.
@Suite("Request shapes")
struct RequestShapeTests {
    static let aasaPath = HostileInputTests.aasaPath

    /// A long header timeout: an answer that arrives within the test's
    /// deadline cannot have come from the timeout.
    static func serving(_ body: @Sendable (RunningOrigin) async throws -> Void) async throws {
        let site = try HostileInputTests.site()
        let limits = ServerConfiguration.Limits(headerTimeout: .seconds(60), idleTimeout: .seconds(60))
        try await RunningOrigin.with(site.configuration(limits: limits)) { origin in
            try await body(origin)
            try await HostileInputTests.expectServing(origin)
        }
    }

    // MARK: Issue 11 item 10

    /// RFC 9112 §3.2: an HTTP/1.1 request without `Host` is a 400 even when
    /// its absolute-form target names the host; so is an invalid `Host`,
    /// though the target's authority would win over it.
    @Test(arguments: [
        ("absolute form, no Host", "GET http://a.example\(aasaPath) HTTP/1.1\r\n\r\n"),
        ("absolute form, Host: ../../etc", "GET http://a.example\(aasaPath) HTTP/1.1\r\nHost: ../../etc\r\n\r\n"),
        ("origin form, Host: ../../etc", "GET \(aasaPath) HTTP/1.1\r\nHost: ../../etc\r\n\r\n"),
        ("absolute form, empty Host", "GET http://a.example\(aasaPath) HTTP/1.1\r\nHost:\r\n\r\n"),
    ])
    func hostRulesHoldForEveryTargetForm(_ name: String, request: String) async throws {
        try await Self.serving { origin in
            let outcome = try await origin.send(request, untilClosed: true)
            #expect(outcome.statuses == [400], "\(name)")
            #expect(outcome.closed, "\(name)")
        }
    }

    /// A 1 MB target is a 414 (the request line is too long), found before
    /// the megabyte has even arrived; not a 431 (the header fields are fine).
    @Test func aOneMegabyteTargetIs414() async throws {
        try await Self.serving { origin in
            let request = get("a.example", "/" + String(repeating: "a", count: 1 << 20))
            let outcome = try await origin.send(request, untilClosed: true)
            #expect(outcome.statuses == [414])
            #expect(outcome.closed)
        }
    }

    /// HTTP/0.9 has no version and no head: answered 400 at once, not after
    /// the header timeout.
    @Test(arguments: ["GET /\r\n", "GET \(aasaPath)\r\n"])
    func http09IsAnswered400AtOnce(request: String) async throws {
        try await Self.serving { origin in
            let outcome = try await origin.send(request, untilClosed: true, deadline: .seconds(20))
            #expect(outcome.statuses == [400], "\(request)")
            #expect(outcome.closed)
        }
    }

    // MARK: Beyond the issue

    /// `Expect: 100-continue` on a GET without a body: the answer comes at
    /// once (no interim response is needed, none is waited for).
    @Test func expectContinueOnAGetIsAnsweredAtOnce() async throws {
        try await Self.serving { origin in
            let outcome = try await origin.send(get("a.example", headers: ["Expect: 100-continue"]))
            #expect(outcome.statuses == [200])
        }
    }

    /// Methods nobody uses: a long token, a lowercase `get`, an extension
    /// method. None is served a file; each connection ends or keeps its
    /// framing, and a NUL byte in the method is a 400 with a close.
    @Test(
        arguments: [
            ("long token method", String(repeating: "X", count: 4000), [400, 405]),
            ("lowercase get", "get", [400, 405]),
            ("extension method", "PROPFIND", [405]),
            ("TRACE", "TRACE", [405]),
        ] as [(String, String, Set<Int>)]
    )
    func absurdMethodsAreNotServed(_ name: String, method: String, allowed: Set<Int>) async throws {
        try await Self.serving { origin in
            let outcome = try await origin.send("\(method) \(Self.aasaPath) HTTP/1.1\r\nHost: a.example\r\n\r\n")
            let status = try #require(outcome.statuses.first, "\(name)")
            #expect(allowed.contains(status), "\(name): \(status)")
        }
    }

    @Test(arguments: [
        ("NUL in the method", "G\u{0}ET \(aasaPath) HTTP/1.1\r\nHost: a.example\r\n\r\n"),
        ("NUL in the target", "GET \(aasaPath)\u{0} HTTP/1.1\r\nHost: a.example\r\n\r\n"),
        ("NUL in a field value", "GET \(aasaPath) HTTP/1.1\r\nHost: a.example\r\nX-A: a\u{0}b\r\n\r\n"),
        ("NUL in a field name", "GET \(aasaPath) HTTP/1.1\r\nHost: a.example\r\nX\u{0}A: b\r\n\r\n"),
    ])
    func nulBytesAre400AndClose(_ name: String, request: String) async throws {
        try await Self.serving { origin in
            let outcome = try await origin.send(request, untilClosed: true)
            #expect(outcome.statuses == [400], "\(name)")
            #expect(outcome.closed, "\(name)")
        }
    }

    /// A request after one with `Connection: close` on the same connection
    /// is never answered: the close is on that answer's boundary.
    @Test func nothingIsAnsweredAfterConnectionClose() async throws {
        try await Self.serving { origin in
            let request = get("a.example", headers: ["Connection: close"]) + get("b.example")
            let outcome = try await origin.send(request, responses: 2, untilClosed: true)
            #expect(outcome.statuses == [200])
            #expect(outcome.closed)
            #expect(outcome.responses.first?.bodyText.contains("com.a.app") == true)
        }
    }

    /// A request written one byte per write (within the header timeout) is
    /// one ordinary request.
    @Test func aRequestInOneByteWritesIsAnswered() async throws {
        try await Self.serving { origin in
            let client = try await RawClient.connect(port: origin.port, receiveBuffer: 1 << 16, autoRead: true)
            for byte in get("a.example").utf8 {
                try await client.channel.writeAndFlush(ByteBuffer(bytes: [byte]))
            }
            try await withDeadline(.seconds(10)) { try await client.waitForResponses(1) }
            #expect(client.responses.map(\.status) == [200])
            try await client.channel.close()
        }
    }

    /// Connection churn: hundreds of connections opened and reset at once,
    /// some mid-request. Every one gives its place back: afterwards a
    /// listener capped at 2 connections still admits 2.
    @Test(.timeLimit(.minutes(1))) func churnedConnectionsGiveTheirPlaceBack() async throws {
        let site = try HostileInputTests.site()
        let configuration = site.configuration(limits: .init(maxConnections: 2))
        try await RunningOrigin.with(configuration) { origin in
            for round in 0..<200 {
                let client = try await RawClient.connect(port: origin.port, autoRead: true)
                if round % 2 == 0 { client.write("GET \(Self.aasaPath) HTTP/1.1\r\nHo") }
                // At the cap the server may have refused and closed it first.
                try? await client.abort()
            }
            // The server learns of each reset on its own time: wait (with a
            // deadline) until two connections are admitted together.
            try await withDeadline(.seconds(20)) {
                while true {
                    let first = try await RawClient.connect(port: origin.port, receiveBuffer: 1 << 16, autoRead: true)
                    let second = try await RawClient.connect(port: origin.port, receiveBuffer: 1 << 16, autoRead: true)
                    first.write(get("a.example"))
                    second.write(get("a.example"))
                    try await first.waitForResponses(1)
                    try await second.waitForResponses(1)
                    let statuses = first.responses.map(\.status) + second.responses.map(\.status)
                    try? await first.channel.close()
                    try? await second.channel.close()
                    if statuses == [200, 200] { return }
                    await Task.yield()
                }
            }
        }
    }
}
