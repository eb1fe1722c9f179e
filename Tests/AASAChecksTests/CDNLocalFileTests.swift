import AASAChecks
import AASAKit
import Foundation
import NIOHTTP1
import Testing

/// `cdn-diff --from-dir` / `--file`: Apple's CDN copy against the
/// repository's file, with no origin involved.
@Suite struct CDNLocalFileTests {
    /// One fake plays Apple's CDN at /a/v1/<domain> and, should anything ask,
    /// an origin at /.well-known/… that answers with another file.
    static func cdn(_ answer: FakeResponse) -> FakeHTTPServer.Responder {
        { head in head.uri.hasPrefix("/a/v1/") ? answer : .json(CDNDiffTests.cdnOld) }
    }

    private func compare(_ server: FakeHTTPServer, file: String) async throws -> CDNComparison {
        let fetcher = try HTTPFetcher(configuration: .init(timeout: .seconds(30)))
        return await CDNDiff(fetcher: fetcher, cdnBase: server.baseURL + "/a/v1").compare(
            "example.com",
            with: .file(path: "aasa/example.com/apple-app-site-association", bytes: Array(file.utf8))
        )
    }

    @Test func comparesWithTheFileAndContactsNoOrigin() async throws {
        try await FakeHTTPServer.with(Self.cdn(.json(CDNDiffTests.cdnSame))) { server in
            let comparison = try await compare(server, file: CDNDiffTests.origin)
            #expect(comparison.result == "in-sync")
            #expect(comparison.status == .pass)
            #expect(comparison.reference == .file(path: "aasa/example.com/apple-app-site-association"))
            // Only the CDN was asked; the origin (which serves another file) never was.
            #expect(server.requests.map(\.uri) == ["/a/v1/example.com"])
        }
    }

    @Test func staleCDNCopyIsOneRemovalAgainstTheFile() async throws {
        try await FakeHTTPServer.with(Self.cdn(.json(CDNDiffTests.cdnOld))) { server in
            let comparison = try await compare(server, file: CDNDiffTests.origin)
            guard case .differs(let diff) = comparison.outcome else {
                Issue.record("expected a difference, got \(comparison.result)")
                return
            }
            #expect(
                diff.changes.map(\.description) == [
                    #"- applinks.details[0].components[1]: {"/":"/help/*","exclude":true}"#
                ]
            )
            #expect(comparison.status == .fail)
        }
    }

    /// The CDN faithfully serves the repository's file, and the file is
    /// broken: "in sync" must not read as a pass.
    @Test func invalidFileFailsEvenWhenInSync() async throws {
        let broken =
            #"{"applinks":{"details":[{"appIDs":"ABCDE12345.com.example.app","components":[{"/":"/shop/*"}]}]}}"#
        try await FakeHTTPServer.with(Self.cdn(.json(broken))) { server in
            let comparison = try await compare(server, file: broken)
            #expect(comparison.result == "in-sync")
            #expect(comparison.status == .fail)
            #expect(comparison.referenceFindings.contains { $0.severity == .error })
        }
    }

    @Test func fileThatIsNotJSONIsAFileError() async throws {
        try await FakeHTTPServer.with(Self.cdn(.json(CDNDiffTests.cdnSame))) { server in
            let comparison = try await compare(server, file: "{\"applinks\": ")
            #expect(comparison.result == "file-error")
            #expect(comparison.status == .fail)
            guard case .referenceError(let message) = comparison.outcome else {
                Issue.record("expected a file error")
                return
            }
            #expect(message.hasPrefix("aasa/example.com/apple-app-site-association: not JSON"))
        }
    }

    @Test func cachedCDNFailureSaysWhenItExpires() async throws {
        let answer = FakeResponse(
            .notFound,
            headers: [
                ("Apple-Failure-Reason", "SWCERR00101 Bad HTTP Response: 404 Not Found"),
                ("Cache-Control", "max-age=1800"), ("Age", "600"), ("Date", "Sun, 06 Nov 1994 08:49:37 GMT"),
            ]
        )
        try await FakeHTTPServer.with(Self.cdn(answer)) { server in
            let comparison = try await compare(server, file: CDNDiffTests.origin)
            #expect(comparison.result == "cdn-error")
            let freshness = try #require(comparison.freshness)
            #expect(freshness.refetchNotBefore?.formatted(.iso8601) == "1994-11-06T09:09:37Z")
            #expect(freshness.summary.contains("in 20 min"))
        }
    }
}
