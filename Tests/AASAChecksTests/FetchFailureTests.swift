import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing

@testable import AASAChecks

/// Every fetch failure says what happened in plain words: the transport's
/// own descriptions (`connection reset (error set): Connection refused)
/// (errno: 111)`) never reach the user.
@Suite struct FetchFailureTests {
    private static let timeouts = FetchFailureClassifier.Timeouts(connect: .seconds(3), total: .seconds(7))
    private static let expiry = Date(timeIntervalSince1970: 1_700_000_000)
    private static let empty: FakeHTTPServer.Responder = { _ in .json("{}") }

    @Test(arguments: [
        (FetchError.Kind.connectionRefused, "connection refused: nothing is listening on that port"),
        (
            .dnsFailure(reason: "nope.invalid: Name or service not known"),
            "DNS lookup failed: nope.invalid: Name or service not known"
        ),
        (.unreachable(reason: "network is unreachable"), "cannot reach the address: network is unreachable"),
        (.connectTimeout(.seconds(3)), "timed out connecting: no TCP connection within 3 s"),
        (.timeout(.milliseconds(300)), "timed out: no complete response within 0.3 s"),
        (.connectionClosed, "the server closed the connection without answering"),
        (.invalidResponse(reason: "invalid status"), "the answer is not valid HTTP/1.1: invalid status"),
        (.bodyTooLarge(limit: 262_144), "the body is larger than 262144 bytes (uncompressed); stopped reading"),
        (
            .tls(.notTLS),
            "TLS handshake failed: the server did not answer in TLS (plain HTTP on this port? use an http:// URL)"
        ),
        (
            .tls(.certificateRejected([.nameMismatch(host: "lieferbar.de", names: ["localhost"])])),
            "TLS certificate rejected: certificate name mismatch: the certificate is for localhost, not lieferbar.de"
        ),
        (
            .tls(.certificateRejected([.nameMismatch(host: "lieferbar.de", names: [])])),
            "TLS certificate rejected: certificate name mismatch: the certificate names no host (no subject alternative names), not lieferbar.de"
        ),
        (
            .tls(.certificateRejected([.expired(notValidAfter: expiry)])),
            "TLS certificate rejected: the certificate expired on 2023-11-14"
        ),
        (
            .tls(.certificateRejected([.selfSigned(subject: "CN=staging")])),
            "TLS certificate rejected: the certificate is self-signed (CN=staging) and not trusted; pass it with --ca-file, or use --insecure"
        ),
        (
            .tls(.certificateRejected([.untrustedIssuer(issuer: "CN=Corp CA", caFile: "ca.pem")])),
            "TLS certificate rejected: the issuer (CN=Corp CA) is neither a system CA nor in --ca-file ca.pem"
        ),
        (.tls(.handshakeFailed(reason: "no TLS version in common")), "TLS handshake failed: no TLS version in common"),
    ])
    func messagesArePlainWords(kind: FetchError.Kind, message: String) {
        #expect(FetchError(kind, url: "https://example.com/x").message == message)
    }

    @Test func messagesNameWhereTheConnectionWent() {
        let error = FetchError(.connectTimeout(.seconds(10)), url: "https://example.com/x", connectedTo: "10.0.0.5:443")
        #expect(error.message == "timed out connecting (connecting to 10.0.0.5:443): no TCP connection within 10 s")
        #expect(error.description.hasPrefix("https://example.com/x: "))
    }

    @Test func closedPlainHTTPConnectionHintsAtTLS() {
        #expect(FetchError(.connectionClosed, url: "http://127.0.0.1:8443/").message.hasSuffix("use https://)"))
    }

    @Test(arguments: [
        (IOError(errnoCode: ECONNREFUSED, reason: "connect") as any Error, FetchError.Kind.connectionRefused),
        (IOError(errnoCode: ETIMEDOUT, reason: "connect"), .connectTimeout(.seconds(3))),
        (IOError(errnoCode: ECONNRESET, reason: "read"), .connectionClosed),
        (
            IOError(errnoCode: ENETUNREACH, reason: "connect"),
            .unreachable(reason: String(cString: strerror(ENETUNREACH)).lowercased())
        ),
        (ChannelError.connectTimeout(.seconds(1)), .connectTimeout(.seconds(3))),
        (HTTPClientError.connectTimeout, .connectTimeout(.seconds(3))),
        (HTTPClientError.deadlineExceeded, .timeout(.seconds(7))),
        (HTTPClientError.remoteConnectionClosed, .connectionClosed),
        (HTTPClientError.tlsHandshakeTimeout, .tls(.handshakeFailed(reason: "the handshake did not finish in time"))),
        (
            SocketAddressError.unknown(host: "nope.invalid", port: 443),
            .dnsFailure(reason: "nope.invalid: no address found")
        ),
        (NIOSSLError.uncleanShutdown, .connectionClosed),
        (NIOSSLExtraError.failedToValidateHostname, .tls(.certificateRejected([]))),
        (HTTPParserError.invalidStatus, .invalidResponse(reason: "invalid HTTP status code")),
        (CancellationError(), .timeout(.seconds(7))),
    ])
    func transportErrorsAreClassified(error: any Error, kind: FetchError.Kind) {
        #expect(FetchFailureClassifier.kind(of: error, timeouts: Self.timeouts) == kind)
    }

    @Test(arguments: [
        ("CERTIFICATE_VERIFY_FAILED", TLSFailure.certificateRejected([])),
        ("WRONG_VERSION_NUMBER", .notTLS),
        (
            "TLSV1_ALERT_UNRECOGNIZED_NAME",
            .handshakeFailed(reason: "the server has no certificate for this name (it rejected the SNI name)")
        ),
        (
            "TLSV1_ALERT_PROTOCOL_VERSION",
            .handshakeFailed(reason: "no TLS version in common (Apple requires TLS 1.2 or later)")
        ),
        (
            "SSLV3_ALERT_HANDSHAKE_FAILURE",
            .handshakeFailed(reason: "the server refused the handshake (no cipher suite in common)")
        ),
        (
            "TLSV13_ALERT_CERTIFICATE_REQUIRED",
            .handshakeFailed(reason: "the server asks for a client certificate; Apple's crawler does not send one")
        ),
        ("SOMETHING_NEW", .handshakeFailed(reason: "SOMETHING_NEW")),
    ])
    func boringSSLReasonsAreExplained(reason: String, failure: TLSFailure) {
        #expect(FetchFailureClassifier.failure(forReason: reason) == failure)
    }

    @Test func reasonCodeIsReadFromBoringSSLText() {
        let text =
            "sslError([Error: 268435703 error:100000f7:SSL routines:OPENSSL_internal:WRONG_VERSION_NUMBER at /x/tls_record.cc:127])"
        #expect(FetchFailureClassifier.reasonCodes(in: text) == ["WRONG_VERSION_NUMBER"])
    }

    // Live: the real stack's errors arrive as the mapping expects.

    @Test func httpsToAPlainHTTPServerIsNotTLS() async throws {
        try await FakeHTTPServer.with(Self.empty) { server in
            await #expect {
                _ = try await HTTPFetcher().fetch("https://127.0.0.1:\(server.port)/")
            } throws: { error in
                (error as? FetchError)?.kind == .tls(.notTLS)
            }
        }
    }

    @Test func plainHTTPToATLSServerIsAClosedConnection() async throws {
        let certificates = try TestCertificates()
        try await FakeHTTPServer.with(tls: try certificates.serverContext(), Self.empty) { server in
            await #expect {
                _ = try await HTTPFetcher().fetch("http://127.0.0.1:\(server.port)/")
            } throws: { error in
                (error as? FetchError)?.kind == .connectionClosed
            }
        }
    }

    @Test func expiredCertificateSaysExpired() async throws {
        let certificates = try TestCertificates(validFor: -2 * 86_400)
        let caFile = try certificates.writeCAFile()
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        try await FakeHTTPServer.with(tls: try certificates.serverContext(), Self.empty) { server in
            await #expect {
                _ = try await HTTPFetcher(configuration: .init(caFile: caFile)).fetch(
                    "https://127.0.0.1:\(server.port)/"
                )
            } throws: { error in
                guard let error = error as? FetchError, case .tls(let failure) = error.kind else { return false }
                return failure.problems.map(\.message)
                    == [
                        "the certificate expired on \(certificates.leafNotValidAfter.formatted(.iso8601.year().month().day()))"
                    ]
                    && error.certificate != nil
            }
        }
    }

    @Test func certificateNotYetValidSaysSo() async throws {
        let certificates = try TestCertificates()
        let caFile = try certificates.writeCAFile()
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        let early = try certificates.issue(names: ["example.com"], startsIn: 3 * 86_400)
        try await FakeHTTPServer.with(tls: try TestCertificates.serverContext(early), HostCheckTests.origin()) {
            server in
            let fetcher = try HTTPFetcher(configuration: .init(timeout: .seconds(30), caFile: caFile))
            let report = await HostCheck(fetcher: fetcher).run(try HostTarget("example.com", baseURL: server.baseURL))
            #expect(report.check("tls.trusted")?.message.contains("the certificate is not valid before") == true)
            #expect(report.check("tls.expiry")?.status == .fail)
            #expect(report.check("tls.expiry")?.message.hasPrefix("certificate not valid before") == true)
        }
    }

    @Test func wildcardCoversOneLabelOnly() {
        let certificate = PeerCertificate(
            subject: "CN=*.example.com",
            issuer: "CN=CA",
            notValidBefore: .distantPast,
            notValidAfter: .distantFuture,
            dnsNames: ["*.example.com"]
        )
        #expect(certificate.covers(host: "www.example.com"))
        #expect(!certificate.covers(host: "example.com"))
        #expect(!certificate.covers(host: "a.www.example.com"))
        #expect(!certificate.covers(host: "wwwexample.com"))
    }

    @Test func trustedCertificateForAnotherNameIsAMismatch() async throws {
        let certificates = try TestCertificates()
        let caFile = try certificates.writeCAFile()
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        try await FakeHTTPServer.with(tls: try certificates.serverContext(), Self.empty) { server in
            let request = FetchRequest("https://lieferbar.de:\(server.port)/", connectTo: "127.0.0.1")
            await #expect {
                _ = try await HTTPFetcher(configuration: .init(caFile: caFile)).fetch(request)
            } throws: { error in
                (error as? FetchError)?.kind
                    == .tls(
                        .certificateRejected([
                            .nameMismatch(host: "lieferbar.de", names: ["example.com", "localhost", "127.0.0.1"])
                        ])
                    )
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test(arguments: [
        ("example.com", true), ("EXAMPLE.com.", true), ("www.example.com", true), ("a.b.example.com", false),
        ("example.org", false), ("127.0.0.1", true), ("127.0.0.2", false), ("localhost", false),
    ])
    func certificateNamesFollowApplesRules(host: String, covered: Bool) {
        let certificate = PeerCertificate(
            subject: "CN=localhost",  // the common name never counts
            issuer: "CN=CA",
            notValidBefore: .distantPast,
            notValidAfter: .distantFuture,
            dnsNames: ["example.com", "*.example.com"],
            ipAddresses: ["127.0.0.1"]
        )
        #expect(certificate.covers(host: host) == covered)
    }
}
