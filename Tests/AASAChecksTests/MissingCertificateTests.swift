import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import AASAChecks

/// A TLS connection from which no certificate was read has had no name
/// checked. NIOSSL always presents one after a verified handshake, so this
/// is held at the unit level: the handler refuses to send, and the check
/// fails rather than pass.
@Suite struct MissingCertificateTests {
    private static func requestHead(expecting host: String?) -> HTTPRequestHead {
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/.well-known/apple-app-site-association")
        head.headers.add(name: "Host", value: "example.com")
        if let host { head.headers.add(name: PeerCertificateHandler.expectedNameHeader, value: host) }
        return head
    }

    @Test func theHandlerSendsNothingOverTLSWithoutACertificate() throws {
        let channel = EmbeddedChannel(handler: PeerCertificateHandler(peer: .tls(der: nil)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
        // Connected, so that the check below shows the refusal closed it.
        #expect(channel.isActive)
        let write = channel.writeAndFlush(HTTPClientRequestPart.head(Self.requestHead(expecting: "example.com")))
        #expect(throws: MissingCertificate.self) { try write.wait() }
        #expect(try channel.readOutbound(as: HTTPClientRequestPart.self) == nil)
        #expect(!channel.isActive)
        #expect(throws: MissingCertificate.self) { try channel.throwIfErrorCaught() }
    }

    @Test func plainHTTPHasNoNamesToCheckAndIsSent() throws {
        let channel = EmbeddedChannel(handler: PeerCertificateHandler(peer: .plainHTTP))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
        try channel.writeAndFlush(HTTPClientRequestPart.head(Self.requestHead(expecting: "example.com"))).wait()
        guard case .head(let sent)? = try channel.readOutbound(as: HTTPClientRequestPart.self) else {
            Issue.record("the request head was not sent")
            return
        }
        // The private header never leaves the process.
        #expect(sent.headers[PeerCertificateHandler.expectedNameHeader].isEmpty)
        #expect(try channel.finish().isClean)
    }

    @Test func aFetchWithoutACertificateFailsTrustedOnHTTPS() throws {
        let target = try HostTarget("example.com")
        var checks = CheckList()
        TLSChecks(fetcher: .init(), now: Date(), expiryWarningDays: 30).addPassed(nil, target: target, to: &checks)
        let trusted = try #require(checks.results.first { $0.id == "tls.trusted" })
        #expect(trusted.status == .fail)
        #expect(trusted.message == "no certificate was read; its names were not checked")
    }

    @Test func theFetchNamesTheProblemForCallersToSwitchOn() {
        #expect(CertificateProblem.notPresented.message == "no certificate was read; its names were not checked")
    }
}
