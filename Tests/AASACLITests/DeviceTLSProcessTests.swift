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
        let executable = try BuiltExecutable.locate("aasa")
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

        let process = Process()
        process.executableURL = executable
        process.arguments = [
            "serve", "--dir", served, "--bind", "127.0.0.1", "--port", "0", "--tls-port", "0", "--admin-port", "0",
            "--poll-interval", "0",
        ]
        let stderr = Pipe()
        process.standardError = stderr
        let lines = LineReader(stderr.fileHandleForReading)
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let http = try await Self.port(of: "http", in: lines)
        let https = try await Self.port(of: "https", in: lines)

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
        let check = try await SystemTool(url: executable).run([
            "check", "a.example", "--base-url", "https://127.0.0.1:\(https)", "--ca-file", bundle,
        ])
        #expect(check.status == 0, "aasa check --ca-file: \(check.outputText) \(check.errorText)")
        // A name under no certificate fails verification rather than getting another host's.
        let stranger = try await curl.run([
            "--silent", "--max-time", "10", "--cacert", bundle, "--resolve", "d.example:\(https):127.0.0.1",
            "https://d.example:\(https)/.well-known/apple-app-site-association",
        ])
        #expect(stranger.status != 0)

        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    static func port(of server: String, in lines: LineReader) async throws -> Int {
        let line = try #require(
            await lines.first { LogLine.field("server", of: $0) == server && $0.contains("listening") },
            "no listening line for \(server)"
        )
        return try #require(line.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })
    }
}
