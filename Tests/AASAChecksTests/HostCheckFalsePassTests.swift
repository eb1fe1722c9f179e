import AASAKit
import Foundation
import NIOHTTP1
import Testing

@testable import AASAChecks

/// Answers that look fine at a glance and are not: each must fail (or, for
/// tolerated ones, warn), never pass.
@Suite struct HostCheckFalsePassTests {
    private static let wellKnown = "/.well-known/apple-app-site-association"

    private func check(
        _ answer: @escaping @Sendable (HTTPRequestHead) -> FakeResponse?,
        options: HostCheck.Options = .init()
    ) async throws -> HostReport {
        try await FakeHTTPServer.with(HostCheckTests.origin(answer)) { server in
            let check = HostCheck(
                fetcher: try HTTPFetcher(configuration: .init(timeout: .seconds(30))),
                options: options
            )
            return await check.run(try HostTarget("example.com", baseURL: server.baseURL))
        }
    }

    private func wellKnown(_ response: FakeResponse) -> @Sendable (HTTPRequestHead) -> FakeResponse? {
        { head in head.uri == Self.wellKnown ? response : nil }
    }

    @Test func htmlPageWithStatus200Fails() async throws {
        let html = FakeResponse.json("<!doctype html><html><body>Welcome</body></html>", contentType: "text/html")
        let report = try await check(wellKnown(html))
        #expect(report.check("http.status")?.status == .pass)
        #expect(report.check("http.content-type")?.status == .warn)
        #expect(report.check("json.valid")?.status == .fail)
        #expect(report.status == .fail)
    }

    /// The checks after `json.valid` used to say the file "could not be
    /// fetched" when it was fetched fine and is an HTML page: the user
    /// looked for a network problem instead of the file.
    @Test func checksSkippedAfterABodyThatIsNotJSONSaySo() async throws {
        let html = FakeResponse.json("<!doctype html><html><body>Welcome</body></html>", contentType: "text/html")
        let mislabelled = FakeResponse.json(HostCheckTests.aasa, headers: [("Content-Encoding", "gzip")])
        for answer in [html, mislabelled] {
            let report = try await check(wellKnown(answer))
            for id in ["aasa.schema", "aasa.lints", "legacy-path"] {
                let skipped = try #require(report.check(id))
                #expect(skipped.status == .skip)
                #expect(skipped.message == "the file is not JSON", "\(id): \(skipped.message)")
            }
        }
        let missing = try await check(wellKnown(.notFound))
        #expect(missing.check("aasa.schema")?.message == "the file could not be fetched")
    }

    @Test func emptyBodyFails() async throws {
        let report = try await check(wellKnown(.json("")))
        #expect(report.check("json.valid")?.status == .fail)
        #expect(report.status == .fail)
    }

    /// Labelled gzip, sent plain: Apple's client cannot decode it either.
    @Test func bodyThatIsNotWhatItsEncodingSaysFails() async throws {
        let mislabelled = FakeResponse.json(HostCheckTests.aasa, headers: [("Content-Encoding", "gzip")])
        let report = try await check(wellKnown(mislabelled))
        let json = try #require(report.check("json.valid"))
        #expect(json.status == .fail)
        #expect(json.message.contains("labelled Content-Encoding: gzip but does not decompress"))
    }

    /// Gzip bytes served without saying so are not JSON.
    @Test func unlabelledGzipFails() async throws {
        let report = try await check(
            wellKnown(FakeResponse(headers: [("Content-Type", "application/json")], body: Gzip.smallAASA))
        )
        #expect(report.check("json.valid")?.status == .fail)
    }

    @Test func jsonWithACharsetParameterPasses() async throws {
        let report = try await check(
            wellKnown(.json(HostCheckTests.aasa, contentType: "application/json; charset=utf-8"))
        )
        #expect(report.check("http.content-type")?.status == .pass)
        #expect(report.status == .pass)
    }

    /// The default stays a warning (big sites serve other types and work);
    /// `--strict` turns it into a failure at the command level.
    @Test func textPlainIsAWarning() async throws {
        let report = try await check(wellKnown(.json(HostCheckTests.aasa, contentType: "text/plain")))
        #expect(report.check("http.content-type")?.status == .warn)
        #expect(report.check("http.content-type")?.message.contains("served as text/plain") == true)
        #expect(report.status == .warn)
    }

    @Test func redirectToTheSameURLFails() async throws {
        let loop = FakeResponse(.movedPermanently, headers: [("Location", Self.wellKnown)])
        let report = try await check(wellKnown(loop))
        let redirect = try #require(report.check("http.redirect"))
        #expect(redirect.status == .fail)
        #expect(redirect.message.contains("to the same URL"))
    }

    /// Only iOS 9-13 read the legacy path: a host serving the file there
    /// alone is broken for every current device.
    @Test func fileOnlyOnTheLegacyPathFails() async throws {
        let report = try await check { head in
            head.uri == HostTarget.legacyPath
                ? .json(HostCheckTests.aasa) : (head.uri == Self.wellKnown ? .notFound : nil)
        }
        let status = try #require(report.check("http.status"))
        #expect(status.status == .fail)
        #expect(status.message.contains("iOS 14 and later read only /.well-known/apple-app-site-association"))
    }

    @Test func fileWithSchemaErrorsFails() async throws {
        let report = try await check(wellKnown(.json(#"{"applinks":{"details":[{"appIDs":"ABCDE12345.a.b"}]}}"#)))
        #expect(report.check("json.valid")?.status == .pass)
        let schema = try #require(report.check("aasa.schema"))
        #expect(schema.status == .fail)
        // The served file's line and column, as `validate` prints them for a local one.
        #expect(schema.message.contains("applinks.details[0].appIDs (line 1, column 35): expected array"))
        #expect(report.status == .fail)
    }

    /// An `http://` URL of a public domain checks something Apple never
    /// fetches, even when the answer is perfect.
    @Test func plainHTTPForAPublicDomainFails() async throws {
        try await FakeHTTPServer.with(HostCheckTests.origin()) { server in
            let resolve = [ResolveOverride(domain: "example.com", port: server.port, address: "127.0.0.1")]
            let fetcher = try HTTPFetcher(configuration: .init(timeout: .seconds(30), resolve: resolve))
            let target = try HostTarget("http://example.com:\(server.port)").connecting(per: resolve)
            let report = await HostCheck(fetcher: fetcher).run(target)
            #expect(report.check("http.status")?.status == .pass)
            let trusted = try #require(report.check("tls.trusted"))
            #expect(trusted.status == .fail)
            #expect(trusted.message.contains("Apple only fetches https://example.com"))
        }
    }

    @Test func insecureStillNamesAWrongCertificate() async throws {
        let certificates = try TestCertificates()
        let leaf = try certificates.issue(names: ["other.example"])
        try await FakeHTTPServer.with(tls: try TestCertificates.serverContext(leaf), HostCheckTests.origin()) {
            server in
            let fetcher = try HTTPFetcher(configuration: .init(timeout: .seconds(30), insecure: true))
            let report = await HostCheck(fetcher: fetcher).run(try HostTarget("example.com", baseURL: server.baseURL))
            let trusted = try #require(report.check("tls.trusted"))
            #expect(trusted.status == .skip)
            #expect(trusted.message.contains("the certificate is for other.example, not example.com"))
        }
    }

    @Test(arguments: [
        ("/.well-known/apple-app-site-association", true),
        ("https://example.com:8443/.well-known/apple-app-site-association", true),
        ("https://example.com/.well-known/apple-app-site-association", false),
        ("/.well-known/apple-app-site-association/", false),
        ("https://www.example.com:8443/.well-known/apple-app-site-association", false),
    ])
    func sameURLRedirects(location: String, same: Bool) {
        #expect(
            HostCheck.isSameURL(location, as: "https://example.com:8443/.well-known/apple-app-site-association") == same
        )
    }
}
