import NIOCore
import NIOEmbedded
import NIOExtras
import NIOSSL
import Testing

@testable import AASAServer

/// ``ConnectionGuard`` on the real serving pipeline, on a testing channel:
/// backpressure, the input budget, half-close, TLS handshake and shutdown
/// deadlines, with virtual time.
@Suite("Connection guard")
struct ConnectionGuardTests {
    let store = SiteStore()
    let site: TemporarySite

    init() async throws {
        site = try TemporarySite()
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.a.app"), host: "a.example")
        let outcome = try SiteLoader(configuration: site.configuration()).load(previous: .empty, force: true)
        store.install(outcome, duration: .zero)
    }

    static func gets(_ count: Int) -> String {
        String(repeating: get("a.example"), count: count)
    }

    @Test func pipelinedRequestsWaitWhileTheSocketIsNotWritable() async throws {
        let serving = try await EmbeddedServing(store: store)
        try await serving.setWritable(false)
        #expect(try await serving.send(Self.gets(50)).isEmpty, "nothing is answered while the socket is full")
        #expect(await serving.isOpen)
        try await serving.setWritable(true)
        let output = try await serving.output()
        #expect(EmbeddedServing.statuses(output) == Array(repeating: "200", count: 50))
        #expect(await serving.isOpen)
    }

    /// Answers stop being produced as soon as the socket is full, not at
    /// the end of what was already read.
    @Test func answeringStopsAtTheRequestThatFilledTheSocket() async throws {
        let serving = try await EmbeddedServing(store: store)
        try await serving.channel.writeInbound(ByteBuffer(string: Self.gets(1)))
        try await serving.setWritable(false)
        try await serving.channel.writeInbound(ByteBuffer(string: Self.gets(10)))
        #expect(EmbeddedServing.statuses(try await serving.output()) == ["200"])
    }

    @Test func aClientPipeliningPastTheInputBudgetIsDisconnected() async throws {
        let serving = try await EmbeddedServing(store: store)
        try await serving.setWritable(false)
        let request = get("a.example")
        let underBudget = ConnectionLimits.minimumInputBudget / request.utf8.count
        try await serving.send(Self.gets(underBudget))
        #expect(await serving.isOpen)
        try await serving.send(Self.gets(2))
        #expect(!(await serving.isOpen))
    }

    /// RFC 9112 §9.6: a client that shuts its write side after pipelining
    /// still gets every answer, then the connection closes.
    @Test(arguments: [true, false])
    func halfCloseAnswersEverythingThenCloses(writable: Bool) async throws {
        let serving = try await EmbeddedServing(store: store)
        try await serving.setWritable(writable)
        var output = try await serving.send(Self.gets(5))
        try await serving.endInput()
        if !writable {
            #expect(await serving.isOpen, "the answers are still to be sent")
            try await serving.setWritable(true)
        }
        output += try await serving.output()
        #expect(EmbeddedServing.statuses(output) == Array(repeating: "200", count: 5))
        #expect(!(await serving.isOpen))
    }

    @Test func halfCloseInsideAHeadIsA400() async throws {
        let serving = try await EmbeddedServing(store: store)
        var output = try await serving.send(get("a.example") + "GET / HTTP/1.1\r\nHo")
        try await serving.endInput()
        output += try await serving.output()
        #expect(EmbeddedServing.statuses(output) == ["200", "400"])
        #expect(!(await serving.isOpen))
    }

    @Test(arguments: [
        ("HTTP/0.9", "GET /\r\n"),
        ("HTTP/0.9 with the well-known path", "GET /.well-known/apple-app-site-association\r\n"),
    ])
    func requestLinesWithoutAVersionAre400AtOnce(_ name: String, request: String) async throws {
        let serving = try await EmbeddedServing(store: store)
        let output = try await serving.send(request)
        #expect(output.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(name)")
        #expect(!(await serving.isOpen))
    }

    @Test func aRequestTargetOverTheLimitIs414() async throws {
        let serving = try await EmbeddedServing(store: store, limits: .init(maxHeaderBytes: 1024))
        let output = try await serving.send("GET /" + String(repeating: "a", count: 2000))
        #expect(output.hasPrefix("HTTP/1.1 414 URI Too Long\r\n"))
        #expect(output.contains("Connection: close"))
        #expect(!(await serving.isOpen))
    }

    @Test func fieldsOverTheLimitAreStill431() async throws {
        let serving = try await EmbeddedServing(store: store, limits: .init(maxHeaderBytes: 1024))
        let output = try await serving.send(
            get("a.example", headers: ["X-Big: " + String(repeating: "a", count: 2000)])
        )
        #expect(output.hasPrefix("HTTP/1.1 431 "))
    }

    /// A ClientHello dribbled a byte at a time is cut off by the header
    /// timeout, like a plain-HTTP slowloris, not by the idle timeout.
    @Test func aTLSHandshakeIsHeldToTheHeaderTimeout() async throws {
        let certificate = try DevCertificateAuthority().issue(names: ["a.example"])
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(certificate.certificatePEM.utf8))
                .map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(certificate.keyPEM.utf8), format: .pem))
        )
        tls.minimumTLSVersion = .tlsv12
        let limits = ServerConfiguration.Limits(headerTimeout: .seconds(10), idleTimeout: .seconds(60))
        let serving = try await EmbeddedServing(
            store: store,
            limits: limits,
            tlsContext: try NIOSSLContext(configuration: tls)
        )
        let hello = HostileInputTests.clientHello(serverName: "a.example")
        for second in 0..<9 {
            try await serving.channel.writeInbound(ByteBuffer(bytes: [hello[second]]))
            await serving.advance(by: .seconds(1))
        }
        #expect(await serving.isOpen)
        await serving.advance(by: .seconds(2))
        #expect(!(await serving.isOpen))
    }

    /// Shutdown ends even a connection whose request never completes, at
    /// the shutdown grace, by the server's own clock.
    @Test func shutdownClosesAStuckRequestAtTheGrace() async throws {
        let limits = ServerConfiguration.Limits(headerTimeout: .seconds(60), idleTimeout: .seconds(60))
        let serving = try await EmbeddedServing(store: store, limits: limits, shutdownGrace: .seconds(8))
        try await serving.send("GET /.well-known/apple-app-site-association HTTP/1.1\r\nHo")
        serving.channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        await serving.advance(by: .milliseconds(7900))
        #expect(await serving.isOpen, "the request under way has until the grace")
        await serving.advance(by: .milliseconds(200))
        #expect(!(await serving.isOpen))
    }

    /// During shutdown a pipelined batch ends after the answer under way.
    @Test func shutdownEndsAPipelineOnAMessageBoundary() async throws {
        let serving = try await EmbeddedServing(store: store)
        serving.channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        let output = try await serving.send(Self.gets(3))
        #expect(EmbeddedServing.statuses(output) == ["200"])
        #expect(!(await serving.isOpen))
    }
}
