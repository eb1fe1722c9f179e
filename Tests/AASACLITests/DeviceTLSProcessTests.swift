import AASAServer
import Foundation
import Testing

@testable import aasa

/// The device path end to end, as a user runs it: `aasa dev-cert` issues a
/// CA and leaves for two hosts and a wildcard, `aasa serve --port --tls-port`
/// serves both ports, and curl (the system's TLS stack, not ours) verifies
/// each leaf against the CA with the host's SNI name.
@Suite("aasa serve --tls-port with dev-cert certificates", .serialized)
struct DeviceTLSProcessTests {
    static let hosts = ["a.example": "com.a.app", "b.example": "com.b.app", "*.c.example": "com.c.app"]

    @Test(.timeLimit(.minutes(1)))
    func curlVerifiesEachLeafAgainstTheCAOverBothPorts() async throws {
        let curl = try SystemTool.locate("curl")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-device-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let served = root + "/aasa"
        for (host, app) in Self.hosts {
            try FileManager.default.createDirectory(atPath: served + "/" + host, withIntermediateDirectories: true)
            try Data(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.\#(app)"],"components":[{"/":"/*"}]}]}}"#.utf8)
                .write(to: URL(fileURLWithPath: served + "/" + host + "/apple-app-site-association"))
        }
        try await DevCertCommand.parse(
            ["a.example", "b.example", "*.c.example", "--dir", served, "--ca-dir", root + "/ca"]
        ).run()

        // The profile: a property list whose root payload is the CA.
        let profileData = try Data(contentsOf: URL(fileURLWithPath: root + "/ca/aasa-dev-ca.mobileconfig"))
        let profile = try #require(
            try PropertyListSerialization.propertyList(from: profileData, format: nil) as? [String: Any]
        )
        let payload = try #require((profile["PayloadContent"] as? [[String: Any]])?.first)
        #expect(payload["PayloadType"] as? String == "com.apple.security.root")
        let caPEM = try String(contentsOfFile: root + "/ca/ca.pem", encoding: .utf8)
        let authority = try DevCertificateAuthority(
            certificatePEM: caPEM,
            keyPEM: String(contentsOfFile: root + "/ca/ca-key.pem", encoding: .utf8)
        )
        #expect(payload["PayloadContent"] as? Data == (try authority.certificateDER))

        // A bundle as `cat other.pem ca.pem` makes it: our CA second, so a
        // PEM without its final newline would break it.
        let bundle = root + "/bundle.pem"
        try Data((try DevCertificateAuthority(commonName: "another CA").certificatePEM + caPEM).utf8)
            .write(to: URL(fileURLWithPath: bundle))

        let server = try ServeProcess(directory: served, arguments: ["--tls-port", "0"])
        defer { server.stop() }
        let http = try await server.start()
        let https = try await server.port(of: "https")

        for (host, app) in Self.hosts {
            let name = host.replacingOccurrences(of: "*", with: "any")
            let secure = try await curl.run([
                "--silent", "--show-error", "--max-time", "10", "--cacert", bundle,
                "--resolve", "\(name):\(https):127.0.0.1",
                "https://\(name):\(https)/.well-known/apple-app-site-association",
            ])
            #expect(secure.status == 0, "curl https \(name): \(secure.errorText)")
            #expect(secure.outputText.contains(app), "\(name)")
            let plain = try await curl.run([
                "--silent", "--show-error", "--max-time", "10", "-H", "Host: \(name)",
                "http://127.0.0.1:\(http)/.well-known/apple-app-site-association",
            ])
            #expect(plain.outputText.contains(app), "plain http \(name): \(plain.errorText)")
        }
        // aasa's own client reads the same `cat`-made bundle (--ca-file).
        let check = try await SystemTool(url: try BuiltExecutable.locate("aasa")).run([
            "check", "a.example", "--base-url", "https://127.0.0.1:\(https)", "--ca-file", bundle,
        ])
        #expect(check.status == 0, "aasa check --ca-file: \(check.outputText) \(check.errorText)")
        // A name under no certificate fails verification rather than getting another host's.
        let stranger = try await curl.run([
            "--silent", "--max-time", "10", "--cacert", bundle, "--resolve", "d.example:\(https):127.0.0.1",
            "https://d.example:\(https)/.well-known/apple-app-site-association",
        ])
        #expect(stranger.status != 0)

        server.stop()
        #expect(server.process.terminationStatus == 0)
    }
}
