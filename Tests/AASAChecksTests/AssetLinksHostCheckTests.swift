import AASAKit
import NIOHTTP1
import Testing

@testable import AASAChecks

/// The `android.*` checks of `aasa check`, each against an answer that
/// looks fine at a glance and leaves Android App Links unverified.
@Suite struct AssetLinksHostCheckTests {
    static let path = "/.well-known/assetlinks.json"
    typealias F = AssetLinksFixtures

    /// Checks example.com on a fake origin answering `files` by path; also
    /// returns the paths requested.
    static func check(
        _ files: [String: FakeResponse],
        expectations: AndroidExpectations = AndroidExpectations()
    ) async throws -> (report: HostReport, requested: [String]) {
        try await FakeHTTPServer.with(HostCheckTests.origin { head in files[head.uri] }) { server in
            let check = HostCheck(
                fetcher: try HTTPFetcher(configuration: .init(timeout: .seconds(30))),
                options: .init(android: expectations)
            )
            let report = await check.run(try HostTarget("example.com", baseURL: server.baseURL))
            return (report, server.requests.map(\.uri))
        }
    }

    @Test func validFileReportsWhoItDelegatesTo() async throws {
        let (report, _) = try await Self.check([Self.path: .json(F.valid)])
        for id in ["android.http", "android.type", "android.size", "android.valid", "android.delegates"] {
            #expect(report.check(id)?.status == .pass, "\(id)")
        }
        #expect(report.check("android.includes")?.status == .skip)
        #expect(
            report.check("android.delegates")?.message
                == "handle_all_urls: com.example.app (1 certificate); get_login_creds: com.example.app (1 certificate)"
        )
        let android = try #require(report.android)
        #expect(android.delegations.map(\.relation) == ["handle_all_urls", "get_login_creds"])
        #expect(
            android.delegations.allSatisfy { $0.fingerprints == [F.fingerprint] && $0.packageName == "com.example.app" }
        )
        #expect(report.status == .pass)
        let json = report.json["android"]
        #expect(json?["delegations"]?.arrayValue?.count == 2)
        #expect(json?["served"] == .bool(true))
    }

    /// Android never follows a redirect, even to the right file.
    @Test func redirectToAValidFileFails() async throws {
        let moved = FakeResponse(.movedPermanently, headers: [("Location", "https://www.example.com\(Self.path)")])
        let (report, requested) = try await Self.check([Self.path: moved, "/www" + Self.path: .json(F.valid)])
        let http = try #require(report.check("android.http"))
        #expect(http.status == .fail)
        #expect(http.message.contains("301 Moved Permanently redirect to https://www.example.com\(Self.path)"))
        #expect(http.message.contains("Android does not follow redirects"))
        #expect(report.check("android.delegates")?.status == .skip)
        #expect(requested.filter { $0.hasSuffix("assetlinks.json") } == [Self.path])
    }

    /// A fetch that got no answer is not a missing file: it fails even when
    /// the file is optional, and the Apple checks still pass (it was a
    /// warning, so a run exited 0 without having seen the file).
    @Test func noAnswerForTheFileFailsEvenWhenOptional() async throws {
        let hangUp = FakeResponse(delivery: .hangUp)
        try await FakeHTTPServer.with(HostCheckTests.origin { $0.uri == Self.path ? hangUp : nil }) { server in
            let check = HostCheck(
                fetcher: try HTTPFetcher(configuration: .init(timeout: .seconds(30))),
                options: .init(android: AndroidExpectations())
            )
            let report = await check.run(try HostTarget("example.com", baseURL: server.baseURL))
            let http = try #require(report.check("android.http"))
            #expect(http.status == .fail)
            #expect(http.message.hasPrefix("could not fetch \(Self.path): "))
            #expect(http.message.contains("whether this host serves one is unknown"))
            #expect(report.check("android.valid")?.status == .skip)
            let status = try #require(report.check("http.status"))
            #expect(status.status == .pass, "\(status.message)")
            #expect(report.status == .fail)
        }
    }

    /// A host that accepts the request for the file and never answers: the
    /// fetch times out, and that is no answer either.
    @Test func aTimedOutFileFailsEvenWhenOptional() async throws {
        let never = FakeResponse(delivery: .never)
        try await FakeHTTPServer.with(HostCheckTests.origin { $0.uri == Self.path ? never : nil }) { server in
            let check = HostCheck(
                fetcher: try HTTPFetcher(configuration: .init(timeout: .milliseconds(300))),
                options: .init(android: AndroidExpectations())
            )
            let report = await check.run(try HostTarget("example.com", baseURL: server.baseURL))
            let http = try #require(report.check("android.http"))
            #expect(http.status == .fail)
            #expect(http.message.hasPrefix("could not fetch \(Self.path): timed out: "), "\(http.message)")
        }
    }

    /// A missing file warns by default (the host may have no Android app)
    /// and fails as soon as an Android app is expected.
    @Test(arguments: [
        FakeResponse.notFound,
        FakeResponse(.found, headers: [("Location", "/")]),
        FakeResponse.json("<!doctype html><title>Home</title>", contentType: "text/html"),
    ])
    func noStatementListWarnsUnlessRequired(answer: FakeResponse) async throws {
        let (optional, _) = try await Self.check([Self.path: answer])
        #expect(optional.check("android.http")?.status == .warn)
        #expect(optional.check("android.http")?.message.contains("--no-assetlinks") == true)
        #expect(optional.check("android.valid")?.status == .skip)
        for expectations in [
            AndroidExpectations(presence: .required), AndroidExpectations(packages: ["com.example.app"]),
            AndroidExpectations(fingerprints: [F.fingerprint]),
        ] {
            let (required, _) = try await Self.check([Self.path: answer], expectations: expectations)
            #expect(required.check("android.http")?.status == .fail)
            #expect(required.status == .fail)
        }
    }

    @Test func notCheckedFetchesNothing() async throws {
        let (report, requested) = try await Self.check(
            [Self.path: .json(F.valid)],
            expectations: AndroidExpectations(presence: .notChecked)
        )
        #expect(report.checks.allSatisfy { !$0.id.hasPrefix("android.") })
        #expect(report.android == nil)
        #expect(!requested.contains(Self.path))
    }

    @Test func textPlainFails() async throws {
        let (report, _) = try await Self.check([Self.path: .json(F.valid, contentType: "text/plain")])
        #expect(report.check("android.type")?.status == .fail)
        #expect(report.check("android.type")?.message == "served as text/plain; Android requires application/json")
    }

    @Test func oversizeFileFails() async throws {
        let statements = Array(repeating: F.statement(), count: 600).joined(separator: ",\n")
        let (report, _) = try await Self.check([Self.path: .json("[" + statements + "]")])
        #expect(report.check("android.size")?.status == .fail)
        #expect(report.check("android.size")?.message.contains("over swift-aasa's limit of 131072 bytes") == true)
        #expect(report.status == .fail)
    }

    /// A body that never ends is a file served wrongly, not a missing one:
    /// it fails even when no Android app is expected.
    @Test func endlessBodyFailsRatherThanCountingAsMissing() async throws {
        let endless = FakeResponse(.ok, headers: [("Content-Type", "application/json")], delivery: .endless)
        let (report, _) = try await Self.check([Self.path: endless])
        #expect(report.check("android.size")?.status == .fail)
        #expect(report.check("android.size")?.message.contains("larger than") == true)
        #expect(report.status == .fail)
    }

    /// One lowercase fingerprint makes Google reject the file: the finding
    /// names the JSON path and the line and column.
    @Test func invalidFileFailsWithPathAndPosition() async throws {
        let lowercase = F.file(F.statement(fingerprints: [F.fingerprint.lowercased()]))
        let (report, _) = try await Self.check(
            [Self.path: .json(lowercase)],
            expectations: AndroidExpectations(packages: ["com.example.app"])
        )
        let valid = try #require(report.check("android.valid"))
        #expect(valid.status == .fail)
        #expect(valid.message.contains("[0].target.sha256_cert_fingerprints[0] (line 1, column "))
        #expect(valid.message.contains("[assetlinks.fingerprint]"))
        // Google grants nothing from a rejected file, so the package is not delegated.
        #expect(report.check("android.delegates")?.status == .fail)
    }

    /// Valid, served right, and delegating to the wrong signing key.
    @Test func validFileWithTheWrongFingerprintFails() async throws {
        let (report, _) = try await Self.check(
            [Self.path: .json(F.file(F.statement(fingerprints: [F.otherFingerprint])))],
            expectations: AndroidExpectations(packages: ["com.example.app"], fingerprints: [F.fingerprint])
        )
        let delegates = try #require(report.check("android.delegates"))
        #expect(delegates.status == .fail)
        #expect(
            delegates.message
                == "\(F.fingerprint) is not listed for com.example.app (listed: \(F.otherFingerprint))"
        )
        #expect(report.check("android.valid")?.status == .pass)
    }

    @Test func missingPackageFailsNamingTheOnesGranted() async throws {
        let (report, _) = try await Self.check(
            [Self.path: .json(F.valid)],
            expectations: AndroidExpectations(packages: ["com.example.other"])
        )
        #expect(
            report.check("android.delegates")?.message
                == "com.example.other is not granted handle_all_urls (the host grants it to com.example.app)"
        )
        #expect(report.status == .fail)
    }

    /// `get_login_creds` alone does not verify App Links.
    @Test func packageGrantedOnlyLoginCredentialsFails() async throws {
        let creds = F.file(F.statement(relations: [AssetLinksRelation.getLoginCreds]))
        let (report, _) = try await Self.check(
            [Self.path: .json(creds)],
            expectations: AndroidExpectations(packages: ["com.example.app"])
        )
        #expect(report.check("android.delegates")?.status == .fail)
    }

    @Test func fingerprintWithoutPackageMustBeListedForSomeApp() async throws {
        let (passing, _) = try await Self.check(
            [Self.path: .json(F.valid)],
            expectations: AndroidExpectations(fingerprints: [F.fingerprint])
        )
        #expect(passing.check("android.delegates")?.status == .pass)
        let (failing, _) = try await Self.check(
            [Self.path: .json(F.valid)],
            expectations: AndroidExpectations(fingerprints: [F.otherFingerprint])
        )
        #expect(failing.check("android.delegates")?.status == .fail)
    }
}
