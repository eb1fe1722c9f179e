import Foundation
import NIOCore
import NIOSSL
import Testing

@testable import AASAServer

/// Native TLS: one certificate per host chosen by SNI, made by `aasa dev-cert`'s generator.
@Suite("TLS")
struct TLSTests {
    static func write(_ certificate: DevCertificate, to directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try certificate.certificatePEM.write(toFile: directory + "/cert.pem", atomically: true, encoding: .utf8)
        try certificate.keyPEM.write(toFile: directory + "/key.pem", atomically: true, encoding: .utf8)
    }

    @Test func servesEachHostWithItsOwnCertificate() async throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.a.app"), host: "a.example")
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.b.app"), host: "b.example")
        let ca = try DevCertificateAuthority()
        let caPEM = try ca.certificatePEM
        let a = try ca.issue(names: ["a.example"])
        let b = try ca.issue(names: ["b.example"])
        let fallback = try ca.issue(names: ["default.example"])
        try Self.write(a, to: site.path + "/a.example/tls")
        try Self.write(b, to: site.path + "/b.example/tls")
        let other = try TemporarySite()
        try Self.write(fallback, to: other.path)
        var configuration = site.configuration()
        configuration.tls = .init(certificatePath: other.path + "/cert.pem", keyPath: other.path + "/key.pem")
        configuration.https = .init(bind: "127.0.0.1", port: 0)

        try await RunningOrigin.with(configuration) { origin in
            let port = try await origin.origin.httpsAddress.port()
            let clientA = TestHTTPClient(port: port, tls: ("a.example", caPEM))
            let responseA = try #require(try await clientA.exchange(get("a.example")).first)
            #expect(responseA.status == 200)
            #expect(responseA.bodyText.contains("com.a.app"))

            let clientB = TestHTTPClient(port: port, tls: ("b.example", caPEM))
            #expect(try await clientB.exchange(get("b.example")).first?.bodyText.contains("com.b.app") == true)

            // SNI naming a host without its own certificate gets the default.
            let clientDefault = TestHTTPClient(port: port, tls: ("default.example", caPEM))
            #expect(try await clientDefault.exchange(get("a.example")).first?.status == 200)

            // A client trusting another CA fails its verification.
            let wrong = TestHTTPClient(
                port: port,
                tls: ("a.example", try DevCertificateAuthority().certificatePEM)
            )
            await #expect(throws: (any Error).self) { _ = try await wrong.exchange(get("a.example")) }
        }
    }

    @Test func expiredAndMismatchedCertificatesAreLoadErrors() throws {
        let site = try TemporarySite()
        let ca = try DevCertificateAuthority()
        try site.write(SampleFile.aasa(), host: "a.example")
        try site.write(SampleFile.aasa(), host: "b.example")
        try Self.write(
            try ca.issue(names: ["a.example"], days: 1, now: Date(timeIntervalSinceNow: -3 * 86_400)),
            to: site.path + "/a.example/tls"
        )
        try Self.write(try ca.issue(names: ["other.example"]), to: site.path + "/b.example/tls")
        let outcome = try SiteLoader(configuration: site.configuration()).load(previous: .empty, force: true)
        let messages = outcome.issues.map(\.description)
        #expect(messages.contains { $0.contains("a.example/tls/cert.pem") && $0.contains("expired") })
        #expect(messages.contains { $0.contains("b.example/tls/cert.pem") && $0.contains("not b.example") })
        // The files themselves are still served.
        #expect(outcome.snapshot.sites.count == 2)
    }

    @Test func keyNotMatchingTheCertificateIsRejected() throws {
        let ca = try DevCertificateAuthority()
        let one = try ca.issue(names: ["a.example"])
        let two = try ca.issue(names: ["a.example"])
        #expect(throws: TLSIdentity.Problem.self) {
            try TLSIdentity(certificatePEM: one.certificatePEM, keyPEM: two.keyPEM, host: "a.example")
        }
        #expect(
            try TLSIdentity(certificatePEM: one.certificatePEM, keyPEM: one.keyPEM, host: "a.example").names == [
                "a.example"
            ]
        )
    }

    @Test(arguments: [
        ("*.brand.example", "a.brand.example", true), ("*.brand.example", "a.b.brand.example", false),
        ("*.brand.example", "brand.example", false), ("a.example", "a.example", true),
    ])
    func wildcardNames(pattern: String, host: String, covered: Bool) {
        #expect(TLSIdentity.name(pattern, covers: host) == covered)
    }
}
