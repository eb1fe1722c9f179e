import AASAKit
import Foundation
import NIOHTTP1
import Testing

@testable import AASAChecks

/// Include statements followed as Google follows them: what each
/// contributes, and every way one can contribute nothing.
@Suite struct AssetLinksIncludeTests {
    static let path = AssetLinksHostCheckTests.path
    typealias F = AssetLinksFixtures

    private func check(
        _ files: [String: FakeResponse],
        expectations: AndroidExpectations = AndroidExpectations()
    ) async throws -> (report: HostReport, requested: [String]) {
        try await AssetLinksHostCheckTests.check(files, expectations: expectations)
    }

    /// An include on the checked host is fetched from the same server, and
    /// its statements count: the package it delegates passes `--package`.
    @Test func includeContributesItsStatements() async throws {
        let (report, _) = try await check(
            [
                Self.path: .json(F.file(F.statement(), F.include("https://example.com/shared/links.json"))),
                "/shared/links.json": .json(F.file(F.statement("com.example.other"))),
            ],
            expectations: AndroidExpectations(packages: ["com.example.app", "com.example.other"])
        )
        let includes = try #require(report.check("android.includes"))
        #expect(includes.status == .pass)
        #expect(
            includes.message == "https://example.com/shared/links.json: contributed 1 statement (com.example.other)"
        )
        #expect(report.check("android.delegates")?.status == .pass)
        let android = try #require(report.android)
        #expect(android.delegations.last?.source == "https://example.com/shared/links.json")
        #expect(android.includes.first?.file != nil)
    }

    /// The package lives only in an include that 404s: Google drops it, so
    /// the host delegates nothing to it.
    @Test(arguments: [
        FakeResponse.notFound,
        FakeResponse(.movedPermanently, headers: [("Location", "https://example.com/v2/links.json")]),
        FakeResponse.json(
            AssetLinksFixtures.file(
                AssetLinksFixtures.statement(
                    "com.example.other",
                    fingerprints: [AssetLinksFixtures.fingerprint.lowercased()]
                )
            )
        ),
    ])
    func includeThatContributesNothingFails(answer: FakeResponse) async throws {
        let (report, requested) = try await check(
            [
                Self.path: .json(F.file(F.statement(), F.include("https://example.com/links.json"))),
                "/links.json": answer,
                "/v2/links.json": .json(F.file(F.statement("com.example.other"))),
            ],
            expectations: AndroidExpectations(packages: ["com.example.other"])
        )
        let includes = try #require(report.check("android.includes"))
        #expect(includes.status == .fail)
        #expect(includes.message.hasPrefix("1 of 1 include contribute nothing: https://example.com/links.json: "))
        #expect(report.check("android.delegates")?.status == .fail)
        #expect(!requested.contains("/v2/links.json"))
    }

    /// Plain http from an https file is never fetched.
    @Test func httpIncludeIsNotFollowed() async throws {
        let (report, requested) = try await check([
            Self.path: .json(F.file(F.statement(), F.include("http://example.com/links.json"))),
            "/links.json": .json(F.file(F.statement("com.example.other"))),
        ])
        #expect(report.check("android.includes")?.status == .fail)
        #expect(report.check("android.includes")?.message.contains("only over https://") == true)
        #expect(report.check("android.valid")?.status == .warn)  // assetlinks.include-insecure
        #expect(!requested.contains("/links.json"))
    }

    /// A loop (the root includes a, a includes the root and itself) ends;
    /// each file is fetched once, and the loop only warns.
    @Test func includeLoopEnds() async throws {
        let root = "https://example.com\(Self.path)"
        let (report, requested) = try await check([
            Self.path: .json(F.file(F.statement(), F.include("https://example.com/a.json"))),
            "/a.json": .json(F.file(F.include(root), F.include("https://EXAMPLE.com/a.json"))),
        ])
        #expect(report.check("android.includes")?.status == .warn)
        #expect(report.android?.includes.map(\.problem) == [nil, .alreadyIncluded, .alreadyIncluded])
        #expect(requested.filter { $0 == "/a.json" }.count == 1)
        #expect(requested.filter { $0 == Self.path }.count == 1)
    }

    /// A chain deeper than the budget is cut and said to be cut.
    @Test func chainDeeperThanTheBudgetFails() async throws {
        var files: [String: FakeResponse] = [Self.path: .json(F.file(F.include("https://example.com/1.json")))]
        for level in 1...5 {
            files["/\(level).json"] = .json(
                F.file(F.statement("com.example.level\(level)"), F.include("https://example.com/\(level + 1).json"))
            )
        }
        let (report, requested) = try await check(files)
        let includes = try #require(report.check("android.includes"))
        #expect(includes.status == .fail)
        #expect(report.android?.includes.last?.problem == .tooDeep(limit: AssetLinksIncludeResolver.maximumDepth))
        #expect(!requested.contains("/4.json"))
    }

    @Test func moreIncludesThanTheBudgetFail() async throws {
        let count = AssetLinksIncludeResolver.maximumFiles + 2
        var files: [String: FakeResponse] = [
            Self.path: .json(
                F.file((1...count).map { F.include("https://example.com/\($0).json") }.joined(separator: ","))
            )
        ]
        for index in 1...count {
            files["/\(index).json"] = .json(F.file(F.statement("com.example.app\(index)")))
        }
        let (report, requested) = try await check(files)
        #expect(report.check("android.includes")?.status == .fail)
        #expect(
            report.android?.includes.compactMap(\.problem)
                == [.overBudget(limit: 10), .overBudget(limit: 10)]
        )
        #expect(requested.filter { $0 != Self.path && $0.hasSuffix(".json") }.count == 10)
    }

    /// Over TLS, each include from its own host (moved by `--resolve`, as
    /// `validate --follow-includes` fetches): followed when the certificate
    /// names the host, contributing nothing when it does not.
    @Test(arguments: [true, false])
    func includeIsFetchedOverTLSFromItsOwnHost(certificateNamesTheHost: Bool) async throws {
        let certificates = try TestCertificates()
        let caFile = try certificates.writeCAFile()
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        let leaf = try certificates.issue(names: [certificateNamesTheHost ? "example.com" : "other.example"])
        let shared = FakeResponse.json(F.file(F.statement("com.example.other")))
        try await FakeHTTPServer.with(tls: try TestCertificates.serverContext(leaf)) { head in
            head.uri == "/shared.json" ? shared : .notFound
        } _: { server in
            let resolve = [ResolveOverride(domain: "example.com", port: server.port, address: "127.0.0.1")]
            let fetcher = try HTTPFetcher(configuration: .init(timeout: .seconds(30), caFile: caFile, resolve: resolve))
            let text = F.file(F.statement(), F.include("https://example.com:\(server.port)/shared.json"))
            let root = try #require(AssetLinksFile(bytes: Array(text.utf8)))
            let includes = await AssetLinksIncludeResolver(fetcher: fetcher).resolve(root, at: "assetlinks.json")
            #expect(includes.count == 1)
            if certificateNamesTheHost {
                #expect(includes.first?.summary == "contributed 1 statement (com.example.other)")
            } else {
                guard case .fetch(let error)? = includes.first?.problem, case .tls = error.kind else {
                    Issue.record("expected a TLS failure, got \(String(describing: includes.first?.problem))")
                    return
                }
            }
        }
    }
}
