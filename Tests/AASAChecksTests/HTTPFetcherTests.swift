import AASAChecks
import Foundation
import NIOHTTP1
import Testing

@Suite struct HTTPFetcherTests {
    private let aasa =
        #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/shop/*"}]}]}}"#

    @Test func redirectIsReportedNotFollowed() async throws {
        let respond: FakeHTTPServer.Responder = { head in
            head.uri == "/start" ? FakeResponse(.movedPermanently, headers: [("Location", "/elsewhere")]) : .json("{}")
        }
        try await FakeHTTPServer.with(respond) { server in
            let response = try await HTTPFetcher().fetch(server.baseURL + "/start")
            #expect(response.status == 301)
            #expect(response.isRedirect)
            #expect(response.header("location") == "/elsewhere")
            #expect(server.requests.map(\.uri) == ["/start"])
        }
    }

    @Test func connectsElsewhereButAsksForTheHost() async throws {
        let respond: FakeHTTPServer.Responder = { _ in .json("{}") }
        try await FakeHTTPServer.with(respond) { server in
            let request = FetchRequest(
                "http://example.com:\(server.port)/x",
                connectTo: "127.0.0.1",
                hostHeader: "example.com"
            )
            _ = try await HTTPFetcher().fetch(request)
            #expect(server.requests.first?.uri == "/x")
            #expect(server.requests.first?.headers["Host"] == ["example.com"])
            #expect(server.requests.first?.headers["User-Agent"].first?.contains("AASA-Bot") == true)
        }
    }

    @Test func slowServerHitsTheTimeout() async throws {
        let respond: FakeHTTPServer.Responder = { _ in FakeResponse(delivery: .never) }
        try await FakeHTTPServer.with(respond) { server in
            let fetcher = try HTTPFetcher(configuration: .init(timeout: .milliseconds(300)))
            await #expect {
                _ = try await fetcher.fetch(server.baseURL + "/")
            } throws: { error in
                (error as? FetchError)?.kind == .timeout(.milliseconds(300))
            }
        }
    }

    @Test func endlessBodyIsCutAtTheLimit() async throws {
        let respond: FakeHTTPServer.Responder = { _ in
            FakeResponse(headers: [("Content-Type", "application/json")], delivery: .endless)
        }
        try await FakeHTTPServer.with(respond) { server in
            let fetcher = try HTTPFetcher(configuration: .init(maximumBodySize: 300 * 1024))
            await #expect {
                _ = try await fetcher.fetch(server.baseURL + "/")
            } throws: { error in
                guard let error = error as? FetchError else { return false }
                return error.kind == .bodyTooLarge(limit: 300 * 1024) && error.message.contains("stopped reading")
            }
        }
    }

    @Test func gzipBodyIsDecompressed() async throws {
        let respond: FakeHTTPServer.Responder = { _ in
            FakeResponse(
                headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
                body: Gzip.smallAASA
            )
        }
        try await FakeHTTPServer.with(respond) { server in
            let response = try await HTTPFetcher().fetch(server.baseURL + "/")
            #expect(String(decoding: response.body, as: UTF8.self).hasPrefix(#"{"applinks""#))
            #expect(response.body.count == 105)
            #expect(response.transferredBytes == Gzip.smallAASA.count)
            #expect(response.contentEncoding == "gzip")
            #expect(server.requests.first?.headers["Accept-Encoding"].first?.contains("gzip") == true)
        }
    }

    @Test func gzipBombIsCutAfterDecompression() async throws {
        let respond: FakeHTTPServer.Responder = { _ in
            FakeResponse(headers: [("Content-Encoding", "gzip")], body: Gzip.oversizeAASA)
        }
        try await FakeHTTPServer.with(respond) { server in
            let fetcher = try HTTPFetcher(configuration: .init(maximumBodySize: 100_000))
            await #expect {
                _ = try await fetcher.fetch(server.baseURL + "/")
            } throws: { error in
                (error as? FetchError)?.kind == .bodyTooLarge(limit: 100_000)
            }
        }
    }

    @Test func selfSignedIsRejectedWithoutTheCA() async throws {
        let certificates = try TestCertificates()
        let respond: FakeHTTPServer.Responder = { _ in .json("{}") }
        try await FakeHTTPServer.with(tls: try certificates.serverContext(), respond) { server in
            await #expect {
                _ = try await HTTPFetcher().fetch(server.baseURL + "/")
            } throws: { error in
                (error as? FetchError)?.kind
                    == .tls(.certificateRejected([.untrustedIssuer(issuer: "CN=swift-aasa test CA", caFile: nil)]))
            }
        }
    }

    @Test func privateCAIsTrustedWithCAFile() async throws {
        let certificates = try TestCertificates(validFor: 30 * 86_400)
        let caFile = try certificates.writeCAFile()
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        let respond: FakeHTTPServer.Responder = { _ in .json("{}") }
        try await FakeHTTPServer.with(tls: try certificates.serverContext(), respond) { server in
            let fetcher = try HTTPFetcher(configuration: .init(caFile: caFile))
            let response = try await fetcher.fetch(
                FetchRequest("https://example.com:\(server.port)/", connectTo: "127.0.0.1")
            )
            #expect(response.status == 200)
            let certificate = try #require(response.certificate)
            #expect(certificate.issuer.contains("swift-aasa test CA"))
            #expect(abs(certificate.notValidAfter.timeIntervalSince(certificates.leafNotValidAfter)) < 2)
        }
    }

    @Test func insecureAcceptsAnyCertificateAndStillReadsIt() async throws {
        let certificates = try TestCertificates()
        let respond: FakeHTTPServer.Responder = { _ in .json("{}") }
        try await FakeHTTPServer.with(tls: try certificates.serverContext(), respond) { server in
            let response = try await HTTPFetcher(configuration: .init(insecure: true)).fetch(server.baseURL + "/")
            #expect(response.status == 200)
            #expect(response.certificate?.subject.contains("example.com") == true)
        }
    }

    @Test func unreadableCAFileIsAConfigurationError() {
        #expect(throws: FetchConfigurationError.self) {
            _ = try HTTPFetcher(configuration: .init(caFile: "/nonexistent/ca.pem"))
        }
    }

    @Test func refusedConnectionSaysSoInPlainWords() async throws {
        // Bind, learn a free port, stop: nothing listens there any more.
        let respond: FakeHTTPServer.Responder = { _ in .notFound }
        let port = try await FakeHTTPServer.with(respond) { $0.port }
        await #expect {
            _ = try await HTTPFetcher().fetch("http://127.0.0.1:\(port)/")
        } throws: { error in
            let error = error as? FetchError
            return error?.kind == .connectionRefused
                && error?.message == "connection refused: nothing is listening on that port"
        }
        // Through a name, Happy Eyeballs wraps the same refusal.
        await #expect {
            _ = try await HTTPFetcher().fetch(FetchRequest("http://example.com:\(port)/", connectTo: "127.0.0.1"))
        } throws: { error in
            (error as? FetchError)?.message
                == "connection refused (connecting to 127.0.0.1:\(port)): nothing is listening on that port"
        }
    }

    @Test func notHTTPIsInvalidURL() async {
        await #expect {
            _ = try await HTTPFetcher().fetch("ftp://127.0.0.1/")
        } throws: { error in
            (error as? FetchError)?.kind == .invalidURL
        }
    }
}
