import AASAChecks
import AASAKit
import Testing

/// `aasa check` and `aasa cdn-diff` pointed at the project's own origin, the
/// way a team checks a local `aasa serve` before deploying.
@Suite struct OwnOriginTests {
    static let files = [
        "example.com/apple-app-site-association": CDNDiffTests.origin,
        "www.example.com/apple-app-site-association": HostCheckTests.aasa,
    ]

    @Test func ownOriginPassesEveryCheck() async throws {
        try await OwnOrigin.with(Self.files) { origin in
            let check = HostCheck(
                fetcher: try HTTPFetcher(configuration: .init(timeout: .seconds(5))),
                options: .init(app: .bundleID("com.example.app"))
            )
            for host in ["example.com", "www.example.com"] {
                let report = await check.run(try HostTarget(host, baseURL: origin.baseURL))
                #expect(report.checks.filter { $0.status == .fail || $0.status == .warn } == [], "\(host)")
                #expect(report.check("http.content-type")?.message == "application/json")
                #expect(report.check("app.listed")?.status == .pass)
            }
        }
    }

    @Test func unknownHostIsNotServed() async throws {
        try await OwnOrigin.with(Self.files) { origin in
            let check = HostCheck(fetcher: try HTTPFetcher(configuration: .init(timeout: .seconds(5))))
            let report = await check.run(try HostTarget("other.example", baseURL: origin.baseURL))
            #expect(report.check("http.status")?.status == .fail)
        }
    }

    @Test func ownOriginAgainstAFakeCDN() async throws {
        try await OwnOrigin.with(Self.files) { origin in
            let respond: FakeHTTPServer.Responder = { head in
                // www.example.com serves one rule; this copy has two.
                head.uri == "/a/v1/example.com" ? .json(CDNDiffTests.cdnSame) : .json(CDNDiffTests.origin)
            }
            try await FakeHTTPServer.with(respond) { cdn in
                let diff = CDNDiff(
                    fetcher: try HTTPFetcher(configuration: .init(timeout: .seconds(5))),
                    cdnBase: cdn.baseURL + "/a/v1/",
                    originBase: origin.baseURL
                )
                #expect(await diff.compare("example.com").outcome.name == "in-sync")
                let stale = await diff.compare("www.example.com")
                #expect(stale.outcome.name == "differs")
                if case .differs(let changes) = stale.outcome {
                    #expect(changes.changes.map(\.path.description) == ["applinks.details[0].components[1]"])
                }
            }
        }
    }
}
