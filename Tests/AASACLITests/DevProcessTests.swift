import Foundation
import Testing

/// `aasa dev` as a developer runs it: started as its own process, it issues
/// the CA and leaves, prints the instructions, serves both ports (checked
/// with curl, an outside TLS stack), and stops promptly with exit 0 on
/// Ctrl-C (SIGINT).
@Suite("aasa dev process", .serialized)
struct DevProcessTests {
    @Test(.timeLimit(.minutes(1)))
    func servesBothPortsPrintsTheStepsAndStopsOnSIGINT() async throws {
        let executable = try BuiltExecutable.locate("aasa")
        let curl = try SystemTool.locate("curl")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-dev-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let served = root + "/site"
        try FileManager.default.createDirectory(atPath: served + "/brand.example", withIntermediateDirectories: true)
        try Data(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.brand.app"],"components":[{"/":"/*"}]}]}}"#.utf8)
            .write(to: URL(fileURLWithPath: served + "/brand.example/apple-app-site-association"))
        try FileManager.default.createSymbolicLink(
            atPath: served + "/www.brand.example",
            withDestinationPath: "brand.example"
        )

        let process = Process()
        process.executableURL = executable
        process.arguments = [
            "dev", served, "--bind", "127.0.0.1", "--port", "0", "--tls-port", "0", "--ca-dir", root + "/ca",
        ]
        let stdout = Pipe()
        process.standardOutput = stdout
        let stderr = Pipe()
        process.standardError = stderr
        let lines = LineReader(stdout.fileHandleForReading)
        let logs = LineReader(stderr.fileHandleForReading)
        let exit = ProcessExit(of: process)
        try process.run()
        defer { exit.terminate(process) }

        let ready = try #require(await lines.first { $0.hasPrefix("aasa dev: ready") }, "no ready line")
        let numbers = ready.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        try #require(numbers.count == 2, "\(ready)")
        let (http, https) = (numbers[0], numbers[1])
        // Printed before the ready line, so already read: no wait here.
        for expected in [
            "entitlement: applinks:brand.example?mode=developer",
            "entitlement: applinks:www.brand.example?mode=developer",
            "https://brand.example:\(https)/.well-known/apple-app-site-association",
            "Associated Domains Development",
            root + "/ca/aasa-dev-ca.mobileconfig",
        ] {
            #expect(await lines.first { $0.contains(expected) } != nil, "not printed: \(expected)")
        }

        for name in ["brand.example", "www.brand.example"] {
            let secure = try await curl.run([
                "--silent", "--show-error", "--max-time", "10", "--cacert", root + "/ca/ca.pem",
                "--resolve", "\(name):\(https):127.0.0.1",
                "https://\(name):\(https)/.well-known/apple-app-site-association",
            ])
            #expect(secure.status == 0, "\(name): \(secure.errorText)")
            #expect(secure.outputText.contains("com.brand.app"))
        }
        let plain = try await curl.run([
            "--silent", "--show-error", "--max-time", "10", "-H", "Host: brand.example",
            "http://127.0.0.1:\(http)/.well-known/apple-app-site-association",
        ])
        #expect(plain.outputText.contains("com.brand.app"), "\(plain.errorText)")

        // A host added while it runs gets a leaf, and the server loads it.
        try FileManager.default.createDirectory(atPath: served + "/new.example", withIntermediateDirectories: true)
        try Data(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.new.app"],"components":[{"/":"/*"}]}]}}"#.utf8)
            .write(to: URL(fileURLWithPath: served + "/new.example/apple-app-site-association"))
        _ = try #require(await lines.first { $0.hasPrefix("aasa dev: issued") && $0.hasSuffix("new.example") })
        var newHost = try await Self.fetch(curl, "new.example", https, ca: root + "/ca/ca.pem")
        // Each retry follows a reload (the certificate is loaded by one);
        // the test's time limit bounds the wait.
        while newHost.status != 0, await logs.first(where: { $0.contains(" reloaded") }) != nil {
            newHost = try await Self.fetch(curl, "new.example", https, ca: root + "/ca/ca.pem")
        }
        #expect(newHost.outputText.contains("com.new.app"), "\(newHost.errorText)")

        kill(process.processIdentifier, SIGINT)
        try #require(await exit.exited(), "no exit within 20 s of SIGINT")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }

    static func fetch(_ curl: SystemTool, _ name: String, _ port: Int, ca: String) async throws -> SystemTool.Result {
        try await curl.run([
            "--silent", "--show-error", "--max-time", "10", "--cacert", ca,
            "--resolve", "\(name):\(port):127.0.0.1", "https://\(name):\(port)/.well-known/apple-app-site-association",
        ])
    }
}
