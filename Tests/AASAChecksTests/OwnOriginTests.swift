import AASAChecks
import AASAKit
import Foundation
import Testing

/// `aasa check` and `aasa cdn-diff` pointed at the project's own origin, the
/// way a team checks a local `aasa serve` before deploying.
@Suite struct OwnOriginTests {
    static let files = [
        "example.com/apple-app-site-association": CDNDiffTests.origin,
        "www.example.com/apple-app-site-association": HostCheckTests.aasa,
    ]

    @Test func ownOriginPassesEveryCheck() async throws {
        try await OwnOrigin.with(Self.files) { origin, _ in
            let check = HostCheck(
                fetcher: try HTTPFetcher(configuration: .init(timeout: .seconds(30))),
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
        try await OwnOrigin.with(Self.files) { origin, _ in
            let check = HostCheck(fetcher: try HTTPFetcher(configuration: .init(timeout: .seconds(30))))
            let report = await check.run(try HostTarget("other.example", baseURL: origin.baseURL))
            #expect(report.check("http.status")?.status == .fail)
        }
    }

    @Test func ownOriginAgainstAFakeCDN() async throws {
        try await OwnOrigin.with(Self.files) { origin, _ in
            let respond: FakeHTTPServer.Responder = { head in
                // www.example.com serves one rule; this copy has two.
                head.uri == "/a/v1/example.com" ? .json(CDNDiffTests.cdnSame) : .json(CDNDiffTests.origin)
            }
            try await FakeHTTPServer.with(respond) { cdn in
                let diff = CDNDiff(
                    fetcher: try HTTPFetcher(configuration: .init(timeout: .seconds(30))),
                    cdnBase: cdn.baseURL + "/a/v1/"
                )
                let inSync = await diff.compare(
                    "example.com",
                    with: .origin(try HostTarget("example.com", baseURL: origin.baseURL))
                )
                #expect(inSync.result == "in-sync")
                let stale = await diff.compare(
                    "www.example.com",
                    with: .origin(try HostTarget("www.example.com", baseURL: origin.baseURL))
                )
                #expect(stale.result == "differs")
                if case .differs(let changes) = stale.outcome {
                    #expect(changes.changes.map(\.path.description) == ["applinks.details[0].components[1]"])
                }
            }
        }
    }
}

/// The TLS checks verify the checked domain, wherever `--base-url` or
/// `--resolve` sends the connection: the origin serves per-host
/// certificates chosen by SNI, as in production.
@Suite struct OwnOriginTLSTests {
    static let aasa = "lieferbar.de/apple-app-site-association"

    private func check(
        _ host: String,
        baseURL: String? = nil,
        caFile: String?,
        resolve: [ResolveOverride] = []
    ) async throws -> HostReport {
        let fetcher = try HTTPFetcher(configuration: .init(timeout: .seconds(30), caFile: caFile, resolve: resolve))
        return await HostCheck(fetcher: fetcher).run(try HostTarget(host, baseURL: baseURL).connecting(per: resolve))
    }

    /// The defect as reported: a certificate for `localhost` only passed
    /// `tls.trusted` for lieferbar.de because the name verified was the
    /// base URL's.
    @Test func localhostCertificateFailsForTheCheckedDomain() async throws {
        let certificates = try TestCertificates()
        let caFile = try certificates.writeCAFile()
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        let localhostOnly = try certificates.issue(names: ["localhost"])
        try await OwnOrigin.with([Self.aasa: HostCheckTests.aasa], tls: localhostOnly) { origin, serverNames in
            let report = try await check("lieferbar.de", baseURL: "https://localhost:\(origin.port)", caFile: caFile)
            let trusted = try #require(report.check("tls.trusted"))
            #expect(trusted.status == .fail)
            #expect(
                trusted.message.contains(
                    "certificate name mismatch: the certificate is for localhost, not lieferbar.de"
                )
            )
            #expect(report.check("http.status")?.status == .skip)
            #expect(report.url == "https://lieferbar.de:\(origin.port)/.well-known/apple-app-site-association")
            #expect(report.connectedTo == "localhost:\(origin.port)")
            #expect(serverNames.all.allSatisfy { $0 == "lieferbar.de" } && !serverNames.all.isEmpty)
        }
    }

    /// `aasa dev-cert` style certificates name 127.0.0.1 too. TLS libraries
    /// accept an IP name equal to the address connected to; that says
    /// nothing about lieferbar.de, so it must not pass.
    @Test func ipNameOfTheConnectedAddressDoesNotCount() async throws {
        let certificates = try TestCertificates()
        let caFile = try certificates.writeCAFile()
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        let devCertificate = try certificates.issue(names: ["localhost"], ipAddresses: [[127, 0, 0, 1]])
        try await OwnOrigin.with([Self.aasa: HostCheckTests.aasa], tls: devCertificate) { origin, _ in
            let report = try await check("lieferbar.de", baseURL: "https://127.0.0.1:\(origin.port)", caFile: caFile)
            #expect(report.check("tls.trusted")?.status == .fail)
            #expect(
                report.check("tls.trusted")?.message.contains("is for localhost, 127.0.0.1, not lieferbar.de") == true
            )
        }
    }

    /// With an IP base URL and `--ca-file`, the host's own certificate is
    /// chosen by SNI and verified against the CA for the domain's name.
    @Test func ipBaseURLUsesTheCAFileAndTheDomain() async throws {
        let certificates = try TestCertificates()
        let caFile = try certificates.writeCAFile()
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        let own = try certificates.issue(names: ["lieferbar.de"])
        let files = [
            Self.aasa: HostCheckTests.aasa,
            "lieferbar.de/tls/cert.pem": own.certificatePEM,
            "lieferbar.de/tls/key.pem": own.keyPEM,
        ]
        try await OwnOrigin.with(files, tls: try certificates.issue(names: ["localhost"])) { origin, serverNames in
            let report = try await check("lieferbar.de", baseURL: "https://127.0.0.1:\(origin.port)", caFile: caFile)
            let trusted = try #require(report.check("tls.trusted"))
            #expect(trusted.status == .pass)
            #expect(trusted.message.contains("trusted for lieferbar.de (with --ca-file \(caFile))"))
            #expect(report.status == .pass)
            #expect(serverNames.all.allSatisfy { $0 == "lieferbar.de" } && !serverNames.all.isEmpty)
        }
    }

    @Test func withoutTheCAFileTheIssuerIsNamedAsUntrusted() async throws {
        let certificates = try TestCertificates()
        let own = try certificates.issue(names: ["lieferbar.de"])
        let files = [
            Self.aasa: HostCheckTests.aasa, "lieferbar.de/tls/cert.pem": own.certificatePEM,
            "lieferbar.de/tls/key.pem": own.keyPEM,
        ]
        let otherCA = try TestCertificates().writeCAFile()
        defer { try? FileManager.default.removeItem(atPath: otherCA) }
        try await OwnOrigin.with(files, tls: own) { origin, _ in
            let base = "https://127.0.0.1:\(origin.port)"
            let system = try await check("lieferbar.de", baseURL: base, caFile: nil)
            #expect(
                system.check("tls.trusted")?.message.contains(
                    "the issuer (CN=swift-aasa test CA) is not a trusted CA; for a private CA pass it with --ca-file"
                ) == true
            )
            let wrongCA = try await check("lieferbar.de", baseURL: base, caFile: otherCA)
            #expect(wrongCA.check("tls.trusted")?.status == .fail, "\(wrongCA.checks)")
            #expect(
                wrongCA.check("tls.trusted")?.message.contains("is neither a system CA nor in --ca-file \(otherCA)")
                    == true
            )
            #expect(wrongCA.check("tls.expiry")?.status == .pass, "\(wrongCA.checks)")
        }
    }

    /// `--resolve DOMAIN:PORT:ADDRESS`: the URL stays the domain's.
    @Test func resolveMovesOnlyTheConnection() async throws {
        let certificates = try TestCertificates()
        let caFile = try certificates.writeCAFile()
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        let own = try certificates.issue(names: ["lieferbar.de"])
        try await OwnOrigin.with([Self.aasa: HostCheckTests.aasa], tls: own) { origin, serverNames in
            let resolve = [ResolveOverride(domain: "lieferbar.de", port: origin.port, address: "127.0.0.1")]
            let report = try await check("https://lieferbar.de:\(origin.port)", caFile: caFile, resolve: resolve)
            #expect(report.status == .pass)
            #expect(report.connectedTo == "127.0.0.1:\(origin.port)")
            #expect(serverNames.all.first == "lieferbar.de")
        }
    }

    @Test func cdnDiffAgainstTheOriginVerifiesTheDomainToo() async throws {
        let certificates = try TestCertificates()
        let caFile = try certificates.writeCAFile()
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        try await OwnOrigin.with([Self.aasa: HostCheckTests.aasa], tls: try certificates.issue(names: ["localhost"])) {
            origin,
            _ in
            let sameCopy: FakeHTTPServer.Responder = { _ in .json(HostCheckTests.aasa) }
            try await FakeHTTPServer.with(sameCopy) { cdn in
                let diff = CDNDiff(
                    fetcher: try HTTPFetcher(configuration: .init(timeout: .seconds(30), caFile: caFile)),
                    cdnBase: cdn.baseURL + "/a/v1/"
                )
                let comparison = await diff.compare(
                    "lieferbar.de",
                    with: .origin(try HostTarget("lieferbar.de", baseURL: "https://localhost:\(origin.port)"))
                )
                #expect(comparison.result == "origin-error")
                guard case .referenceError(let message) = comparison.outcome else { return }
                #expect(message.contains("certificate name mismatch"))
            }
        }
    }
}
