import AASAServer
import Foundation
import Testing

@testable import aasa

@Suite("aasa dev-cert")
struct DevCertCommandTests {
    /// The files `aasa dev-cert --dir` writes are where `aasa serve` looks for
    /// a host's SNI certificate, and its loader accepts them for that host.
    @Test func writesAHostCertificateTheServerAccepts() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-devcert-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let command = try DevCertCommand.parse(["pastaio.test", "www.pastaio.test", "--dir", directory.path])
        try await command.run()
        let tls = directory.appendingPathComponent("pastaio.test/tls")
        let identity = try TLSIdentity(
            certificatePath: tls.appendingPathComponent("cert.pem").path,
            keyPath: tls.appendingPathComponent("key.pem").path,
            host: "www.pastaio.test"
        )
        #expect(identity.names == ["pastaio.test", "www.pastaio.test"])
        #expect(identity.notValidAfter > Date().addingTimeInterval(364 * 86_400))
    }

    @Test func refusesToOverwriteWithoutForce() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-devcert-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await DevCertCommand.parse(["a.test", "--out", directory.path]).run()
        await #expect(throws: (any Error).self) {
            try await DevCertCommand.parse(["a.test", "--out", directory.path]).run()
        }
        try await DevCertCommand.parse(["a.test", "--out", directory.path, "--force"]).run()
    }

    @Test(arguments: [["bad host"], ["a.test", "--days", "0"], ["a.test", "--days", "900"]])
    func rejectsBadArguments(arguments: [String]) {
        #expect(throws: (any Error).self) { try DevCertCommand.parse(arguments) }
    }
}
