import AASAKit
import NIOHTTP1
import Testing

@testable import AASAChecks

/// `aasa.lints` on a live host: a file that passes the schema but that the
/// system reads differently from what its author meant must not pass.
@Suite struct HostCheckLintTests {
    private func check(_ body: String) async throws -> HostReport {
        let answer: @Sendable (HTTPRequestHead) -> FakeResponse? = { head in
            head.uri == "/.well-known/apple-app-site-association" ? .json(body) : nil
        }
        return try await FakeHTTPServer.with(HostCheckTests.origin(answer)) { server in
            let fetcher = try HTTPFetcher(configuration: .init(timeout: .seconds(30)))
            return await HostCheck(fetcher: fetcher).run(try HostTarget("example.com", baseURL: server.baseURL))
        }
    }

    /// `$(lang)` is defined, `$(langs)` is not: the rule never matches.
    @Test func aLintErrorFailsTheHost() async throws {
        let report = try await check(
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/$(langs)/*"}]}]}}"#
        )
        #expect(report.check("aasa.schema")?.status == .pass)
        let lints = try #require(report.check("aasa.lints"))
        #expect(lints.status == .fail)
        #expect(lints.message.contains("lint.undefined-variable"), "\(lints.message)")
        #expect(report.status == .fail)
    }

    /// A rule after a catch-all rule never decides: a warning, which
    /// `--strict` turns into a failure.
    @Test func aLintWarningWarnsTheHost() async throws {
        let report = try await check(
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"*"},{"/":"/a"}]}]}}"#
        )
        let lints = try #require(report.check("aasa.lints"))
        #expect(lints.status == .warn)
        #expect(lints.message.contains("lint.unreachable-rule"), "\(lints.message)")
        #expect(report.status == .warn)
    }
}
