import Foundation
import NIOSSL
import Testing

@testable import AASAChecks

/// A trusted certificate that our parser cannot read: its names cannot be
/// held to Apple's rules, so `tls.trusted` must fail, never pass unchecked.
@Suite struct UnreadableCertificateTests {
    @Test func aCertificateThatCannotBeReadFailsTheNameCheck() async throws {
        let certificates = try TestCertificates()
        let leaf = try certificates.issueWithWeakRSAKey(names: ["example.com"])
        // The premise: TLS presents it, our parser cannot read it.
        let der = try NIOSSLCertificate(bytes: Array(leaf.certificatePEM.utf8), format: .pem).toDERBytes()
        #expect(PeerCertificate(derEncoded: der) == nil)
        let caFile = try certificates.writeCAFile()
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        try await FakeHTTPServer.with(tls: try TestCertificates.serverContext(leaf), HostCheckTests.origin()) {
            server in
            let fetcher = try HTTPFetcher(configuration: .init(caFile: caFile))
            let report = await HostCheck(fetcher: fetcher).run(try HostTarget("example.com", baseURL: server.baseURL))
            let trusted = try #require(report.check("tls.trusted"))
            #expect(trusted.status == .fail)
            #expect(trusted.message.contains("the certificate could not be read"))
            #expect(trusted.message.contains("its names were not checked"))
            #expect(report.status == .fail)
            // Nothing was requested over a connection whose names were not checked.
            #expect(server.requests.isEmpty)
            // The fetch says so in a form callers switch on.
            await #expect {
                _ = try await fetcher.fetch(FetchRequest("https://example.com:\(server.port)/", connectTo: "127.0.0.1"))
            } throws: { error in
                guard case .tls(.certificateRejected(let problems))? = (error as? FetchError)?.kind,
                    case .unreadable = problems.first
                else { return false }
                return problems.count == 1
            }
            await fetcher.shutdown()
        }
    }
}
