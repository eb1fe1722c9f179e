import AASAChecks
import AASAKit
import Foundation
import NIOHTTP1
import Testing

@Suite struct HostCheckTests {
    static let aasa =
        #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/shop/*"}]}]}}"#

    /// A well-behaved origin for example.com, with `override` answering first.
    static func origin(
        _ override: @escaping @Sendable (HTTPRequestHead) -> FakeResponse? = { _ in nil }
    ) -> FakeHTTPServer.Responder {
        { head in
            if let response = override(head) { return response }
            switch head.uri {
            case "/.well-known/apple-app-site-association": return .json(aasa)
            default: return .notFound
            }
        }
    }

    private func check(
        _ server: FakeHTTPServer,
        fetcher: HTTPFetcher? = nil,
        options: HostCheck.Options = .init()
    ) async throws -> HostReport {
        let check = HostCheck(
            // A bound against a hang, not a speed the test asserts: a loaded
            // CI machine once took more than 5 s to stream 128 KiB.
            fetcher: try fetcher ?? HTTPFetcher(configuration: .init(timeout: .seconds(30))),
            options: options
        )
        return await check.run(try HostTarget("example.com", baseURL: server.baseURL))
    }

    @Test func healthyHostPasses() async throws {
        try await FakeHTTPServer.with(Self.origin()) { server in
            let report = try await check(server, options: .init(app: .bundleID("com.example.app")))
            #expect(report.status == .pass)
            #expect(report.check("http.status")?.status == .pass)
            #expect(report.check("tls.trusted")?.status == .skip)  // plain HTTP base URL
            #expect(report.check("legacy-path")?.status == .pass)
            #expect(report.check("app.listed")?.message.contains("ABCDE12345.com.example.app") == true)
            #expect(
                report.checks.prefix(11).map(\.id) == [
                    "connect", "tls.trusted", "tls.expiry", "http.redirect", "http.status", "http.content-type",
                    "file.size",
                    "json.valid", "aasa.schema", "aasa.lints", "legacy-path",
                ]
            )
            #expect(server.requests.allSatisfy { $0.headers["Host"] == ["example.com"] })
        }
    }

    @Test func redirectFailsNamingTheLocation() async throws {
        try await FakeHTTPServer.with(
            Self.origin { head in
                head.uri.hasPrefix("/.well-known")
                    ? FakeResponse(.found, headers: [("Location", "https://www.example.com/aasa")]) : nil
            }
        ) { server in
            let report = try await check(server)
            let redirect = try #require(report.check("http.redirect"))
            #expect(redirect.status == .fail)
            #expect(redirect.message.contains("https://www.example.com/aasa"))
            #expect(report.check("json.valid")?.status == .skip)
            #expect(server.requests.filter { $0.uri.hasPrefix("/.well-known") }.count == 1)
        }
    }

    @Test func wrongContentTypeIsAWarning() async throws {
        try await FakeHTTPServer.with(
            Self.origin { head in
                head.uri.hasPrefix("/.well-known") ? .json(Self.aasa, contentType: "application/octet-stream") : nil
            }
        ) { server in
            let report = try await check(server)
            #expect(report.check("http.content-type")?.status == .warn)
            #expect(report.check("http.content-type")?.message.contains("application/octet-stream") == true)
            #expect(report.status == .warn)
        }
    }

    @Test func oversizeFileFails() async throws {
        let big =
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/"#
            + String(repeating: "a", count: 140_000) + #""}]}]}}"#
        try await FakeHTTPServer.with(Self.origin { head in head.uri.hasPrefix("/.well-known") ? .json(big) : nil }) {
            server in
            let report = try await check(server)
            let size = try #require(report.check("file.size"))
            #expect(size.status == .fail)
            #expect(size.message.contains("131072"))
        }
    }

    @Test func oversizeCountsTheUncompressedBody() async throws {
        try await FakeHTTPServer.with(
            Self.origin { head in
                head.uri.hasPrefix("/.well-known")
                    ? FakeResponse(
                        headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
                        body: Gzip.oversizeAASA
                    )
                    : nil
            }
        ) { server in
            let report = try await check(server)
            let size = try #require(report.check("file.size"))
            #expect(size.status == .fail)
            #expect(size.message.contains("200093 bytes uncompressed"))
            #expect(size.message.contains("315 bytes gzip"))
        }
    }

    @Test func endlessBodyIsCutAndReported() async throws {
        try await FakeHTTPServer.with(
            Self.origin { head in
                head.uri.hasPrefix("/.well-known")
                    ? FakeResponse(headers: [("Content-Type", "application/json")], delivery: .endless) : nil
            }
        ) { server in
            let report = try await check(server)
            #expect(report.check("file.size")?.status == .fail)
            #expect(report.check("file.size")?.message.contains("stopped reading") == true)
        }
    }

    @Test func slowHostTimesOut() async throws {
        let respond: FakeHTTPServer.Responder = { _ in FakeResponse(delivery: .never) }
        try await FakeHTTPServer.with(respond) { server in
            let report = try await check(
                server,
                fetcher: try HTTPFetcher(configuration: .init(timeout: .milliseconds(300)))
            )
            #expect(report.check("http.status")?.status == .fail)
            #expect(report.check("http.status")?.message.contains("no complete response") == true)
            #expect(report.status == .fail)
        }
    }

    @Test func invalidJSONFails() async throws {
        try await FakeHTTPServer.with(
            Self.origin { head in head.uri.hasPrefix("/.well-known") ? .json("{\"applinks\": ") : nil }
        ) { server in
            let report = try await check(server)
            #expect(report.check("json.valid")?.status == .fail)
            #expect(report.check("aasa.schema")?.status == .skip)
        }
    }

    @Test func notFoundFails() async throws {
        let respond: FakeHTTPServer.Responder = { _ in .notFound }
        try await FakeHTTPServer.with(respond) { server in
            let report = try await check(server)
            #expect(report.check("http.status")?.status == .fail)
            #expect(report.check("http.status")?.message == "404 Not Found instead of 200")
        }
    }

    @Test func differingLegacyFileWarns() async throws {
        try await FakeHTTPServer.with(
            Self.origin { head in
                head.uri == "/apple-app-site-association" ? .json(#"{"applinks":{"details":[]}}"#) : nil
            }
        ) { server in
            let report = try await check(server)
            let legacy = try #require(report.check("legacy-path"))
            #expect(legacy.status == .warn)
            #expect(legacy.message.contains("differs"))
        }
    }

    @Test func identicalLegacyFilePasses() async throws {
        try await FakeHTTPServer.with(
            Self.origin { head in head.uri == "/apple-app-site-association" ? .json(Self.aasa) : nil }
        ) { server in
            let report = try await check(server)
            #expect(report.check("legacy-path")?.message.contains("same content") == true)
        }
    }

    @Test func unlistedAppFails() async throws {
        try await FakeHTTPServer.with(Self.origin()) { server in
            let report = try await check(server, options: .init(app: .appID("ZZZZZ99999.com.example.app")))
            #expect(report.check("app.listed")?.status == .fail)
            #expect(report.status == .fail)
        }
    }

    @Test func privateCertificateFailsWithoutCAFile() async throws {
        let certificates = try TestCertificates()
        try await FakeHTTPServer.with(tls: try certificates.serverContext(), Self.origin()) { server in
            let report = try await check(server)
            let trusted = try #require(report.check("tls.trusted"))
            #expect(trusted.status == .fail)
            // The certificate is read anyway, to say what was presented.
            #expect(trusted.message.contains("the issuer (CN=swift-aasa test CA) is not a trusted CA"))
            #expect(trusted.message.contains("--ca-file"))
            #expect(report.check("tls.expiry")?.status == .pass)
            #expect(report.check("http.status")?.status == .skip)
            // Nothing was requested over a connection that failed verification.
            #expect(server.requests.isEmpty)
        }
    }

    @Test func privateCAPassesWithCAFileAndWarnsOnExpiry() async throws {
        let certificates = try TestCertificates(validFor: 5 * 86_400)
        let caFile = try certificates.writeCAFile()
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        try await FakeHTTPServer.with(tls: try certificates.serverContext(), Self.origin()) { server in
            let report = try await check(server, fetcher: try HTTPFetcher(configuration: .init(caFile: caFile)))
            #expect(report.check("tls.trusted")?.status == .pass)
            #expect(report.check("tls.trusted")?.message.contains("--ca-file") == true)
            let expiry = try #require(report.check("tls.expiry"))
            #expect(expiry.status == .warn)
            #expect(expiry.message.contains("in 4 days") || expiry.message.contains("in 5 days"))
        }
    }

    @Test func insecureSkipsTrustButChecksExpiry() async throws {
        let certificates = try TestCertificates()
        try await FakeHTTPServer.with(tls: try certificates.serverContext(), Self.origin()) { server in
            let report = try await check(server, fetcher: try HTTPFetcher(configuration: .init(insecure: true)))
            #expect(report.check("tls.trusted")?.status == .skip)
            #expect(report.check("tls.expiry")?.status == .pass)
            #expect(report.check("http.status")?.status == .pass)
        }
    }

    @Test(arguments: [
        ("example.com", "example.com", "https://example.com"),
        ("https://Example.com:8443/path", "example.com", "https://example.com:8443"),
        ("http://127.0.0.1:8080", "127.0.0.1", "http://127.0.0.1:8080"),
        ("example.com:8443", "example.com", "https://example.com:8443"),
        ("Example.COM/", "example.com", "https://example.com"),
    ])
    func targetsParse(argument: String, host: String, origin: String) throws {
        let target = try HostTarget(argument)
        #expect(target.host == host)
        #expect(target.origin == origin)
        #expect(target.connectTo == nil)
        #expect(target.request(HostTarget.wellKnownPath).hostHeader == nil)
    }

    /// A base URL moves the connection, not the name: the URL still names
    /// the host (for SNI and the certificate), `Host` carries no stand-in port.
    @Test func baseURLOnlyChoosesWhereToConnect() throws {
        let target = try HostTarget("example.com", baseURL: "https://127.0.0.1:8443/staging/")
        let request = target.request(HostTarget.wellKnownPath)
        #expect(request.url == "https://example.com:8443/staging/.well-known/apple-app-site-association")
        #expect(request.connectTo == "127.0.0.1")
        #expect(request.hostHeader == "example.com")
        #expect(target.connectionDescription == "127.0.0.1:8443")
    }

    @Test func badTargetIsAnError() {
        #expect(throws: HostTargetError.self) { try HostTarget("ftp://example.com") }
        #expect(throws: HostTargetError.self) { try HostTarget("example.com/path") }
    }
}
