import AASAChecks
import AASAKit
import NIOHTTP1
import Testing

@Suite struct CDNDiffTests {
    static let origin = """
        {
          "applinks": {
            "details": [
              {"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/shop/*"}, {"/": "/help/*", "exclude": true}]}
            ]
          }
        }
        """
    /// The same file the way the CDN re-serialises it: other key order, no whitespace.
    static let cdnSame =
        #"{"applinks":{"details":[{"components":[{"/":"/shop/*"},{"exclude":true,"/":"/help/*"}],"appIDs":["ABCDE12345.com.example.app"]}]}}"#
    static let cdnOld =
        #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/shop/*"}]}]}}"#

    /// One server plays both parts: the origin at /.well-known/…, the CDN at /a/v1/<domain>.
    static func servers(
        cdn: @escaping @Sendable (HTTPRequestHead) -> FakeResponse,
        origin: FakeResponse = .json(origin)
    )
        -> FakeHTTPServer.Responder
    {
        { head in
            head.uri.hasPrefix("/a/v1/")
                ? cdn(head) : (head.uri == "/.well-known/apple-app-site-association" ? origin : .notFound)
        }
    }

    /// Compares example.com with the origin on `server` (the live-origin mode).
    private func compare(_ server: FakeHTTPServer) async throws -> CDNComparison {
        let fetcher = try HTTPFetcher(configuration: .init(timeout: .seconds(30)))
        return await CDNDiff(fetcher: fetcher, cdnBase: server.baseURL + "/a/v1").compare(
            "example.com",
            with: .origin(try HostTarget("example.com", baseURL: server.baseURL))
        )
    }

    @Test func reserialisedCopyIsInSync() async throws {
        let cdn = FakeResponse.json(
            Self.cdnSame,
            headers: [("Apple-From", "https://example.com/.well-known/apple-app-site-association"), ("Age", "120")]
        )
        try await FakeHTTPServer.with(Self.servers(cdn: { _ in cdn })) { server in
            let comparison = try await compare(server)
            guard case .inSync = comparison.outcome else {
                Issue.record("expected in sync, got \(comparison.result)")
                return
            }
            #expect(comparison.status == .pass)
            #expect(comparison.cdnURL == server.baseURL + "/a/v1/example.com")
            #expect(comparison.cdnHeaders.map(\.name) == ["Apple-From", "Age"])
            let originRequest = try #require(server.requests.first { $0.uri.hasPrefix("/.well-known") })
            #expect(originRequest.headers["Host"] == ["example.com"])
        }
    }

    @Test func staleCopyDiffersByPath() async throws {
        try await FakeHTTPServer.with(Self.servers(cdn: { _ in .json(Self.cdnOld) })) { server in
            let comparison = try await compare(server)
            guard case .differs(let diff) = comparison.outcome else {
                Issue.record("expected a difference, got \(comparison.result)")
                return
            }
            #expect(comparison.status == .fail)
            #expect(diff.changes.map(\.path.description) == ["applinks.details[0].components[1]"])
            #expect(diff.changes.first?.kind == .removed)
            #expect(comparison.json["changes"]?.arrayValue?.count == 1)
        }
    }

    @Test func cdnNotFoundShowsApplesHeaders() async throws {
        let cdn = FakeResponse(
            .notFound,
            headers: [
                ("Apple-Failure-Reason", "SWCERR00301 Timeout"),
                ("Apple-Failure-Details", #"{"cause":"timeout"}"#),
                ("Apple-Try-Direct", "false"),
                ("Cache-Control", "max-age=1800"),
                ("Age", "42"),
            ]
        )
        try await FakeHTTPServer.with(Self.servers(cdn: { _ in cdn })) { server in
            let comparison = try await compare(server)
            guard case .cdnError(let failure) = comparison.outcome else {
                Issue.record("expected a CDN error, got \(comparison.result)")
                return
            }
            #expect(comparison.status == .fail)
            #expect(comparison.result == "cdn-error")
            #expect(failure.status == 404)
            #expect(failure.reason == "SWCERR00301 Timeout")
            #expect(failure.details == #"{"cause":"timeout"}"#)
            #expect(failure.cacheControl == "max-age=1800")
            #expect(failure.age == "42")
            #expect(failure.explanation.contains("did not answer Apple in time"))
            #expect(
                failure.headers.map(\.name) == [
                    "Apple-Failure-Reason", "Apple-Failure-Details", "Apple-Try-Direct", "Cache-Control", "Age",
                ]
            )
        }
    }

    @Test func cdnNotFoundBecauseOriginAnsweredApple403() async throws {
        let cdn = FakeResponse(
            .notFound,
            headers: [
                ("Apple-Failure-Reason", "SWCERR00101 Bad HTTP Response: 403 Forbidden"),
                ("Apple-Failure-Details", #"{"status":403}"#),
                ("Apple-From", "https://example.com/.well-known/apple-app-site-association"),
                ("Cache-Control", "max-age=1800"),
            ]
        )
        try await FakeHTTPServer.with(Self.servers(cdn: { _ in cdn })) { server in
            let comparison = try await compare(server)
            guard case .cdnError(let failure) = comparison.outcome else {
                Issue.record("expected a CDN error, got \(comparison.result)")
                return
            }
            #expect(failure.originStatus == 403)
            #expect(failure.explanation.contains("your origin answered Apple's crawler with 403 Forbidden"))
            #expect(failure.from == "https://example.com/.well-known/apple-app-site-association")
        }
    }

    @Test func cdnWithoutAReasonSaysSo() async throws {
        try await FakeHTTPServer.with(Self.servers(cdn: { _ in .notFound })) { server in
            let comparison = try await compare(server)
            guard case .cdnError(let failure) = comparison.outcome else {
                Issue.record("expected a CDN error")
                return
            }
            #expect(failure.explanation.contains("without an Apple-Failure-Reason"))
        }
    }

    @Test func originErrorWinsAndKeepsTheCDNFailure() async throws {
        let cdn = FakeResponse(
            .notFound,
            headers: [("Apple-Failure-Reason", "SWCERR00101 Bad HTTP Response: 404 Not Found")]
        )
        try await FakeHTTPServer.with(Self.servers(cdn: { _ in cdn }, origin: FakeResponse(.internalServerError))) {
            server in
            let comparison = try await compare(server)
            guard case .referenceError(let message) = comparison.outcome else {
                Issue.record("expected an origin error, got \(comparison.result)")
                return
            }
            #expect(comparison.status == .fail)
            #expect(comparison.result == "origin-error")
            #expect(message.contains("500 Internal Server Error"))
            #expect(comparison.cdnFailure?.explanation.contains("answered Apple with 404 Not Found") == true)
        }
    }

    @Test func redirectingOriginIsAnOriginError() async throws {
        let origin = FakeResponse(
            .movedPermanently,
            headers: [("Location", "https://www.example.com/.well-known/apple-app-site-association")]
        )
        try await FakeHTTPServer.with(Self.servers(cdn: { _ in .json(Self.cdnSame) }, origin: origin)) { server in
            let comparison = try await compare(server)
            guard case .referenceError(let message) = comparison.outcome else {
                Issue.record("expected an origin error, got \(comparison.result)")
                return
            }
            #expect(message.contains("redirect to https://www.example.com/"))
            #expect(message.contains("not followed"))
        }
    }

    @Test func cdnThatIsNotJSONIsACDNError() async throws {
        try await FakeHTTPServer.with(Self.servers(cdn: { _ in .json("<html>") })) { server in
            let comparison = try await compare(server)
            #expect(comparison.status == .fail)
            #expect(comparison.result == "cdn-error")
        }
    }
}
