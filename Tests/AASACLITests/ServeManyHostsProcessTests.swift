import Foundation
import Testing

/// `aasa serve` with more hosts than the process may open descriptors, as
/// on a Mac (a soft limit of 256) or under systemd (1,024): every host is
/// served. A loader that held each host directory open until it read it
/// served none of them (every host failed with "Too many open files").
@Suite("aasa serve under a low descriptor limit", .serialized)
struct ServeManyHostsProcessTests {
    static let limit = 256
    static let hostCount = 600

    @Test(.timeLimit(.minutes(1)))
    func servesMoreHostsThanTheDescriptorLimit() async throws {
        let executable = try BuiltExecutable.locate("aasa")
        let curl = try SystemTool.locate("curl")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-hosts-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        for index in 0..<Self.hostCount {
            let host = directory.appendingPathComponent(Self.host(index))
            try FileManager.default.createDirectory(at: host, withIntermediateDirectories: true)
            let file =
                #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.h\#(index).app"],"components":[{"/":"/*"}]}]}}"#
            try Data(file.utf8).write(to: host.appendingPathComponent("apple-app-site-association"))
        }

        // `ulimit -n` in the shell sets the soft and the hard limit: the
        // server cannot raise it back.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "ulimit -n \(Self.limit) && exec \"$0\" \"$@\"", executable.path,
            "serve", "--dir", directory.path, "--bind", "127.0.0.1", "--port", "0", "--admin-port", "0",
            "--poll-interval", "0",
        ]
        let stderr = Pipe()
        process.standardError = stderr
        let lines = LineReader(stderr.fileHandleForReading)
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let loaded = try #require(await lines.first { $0.contains("reloaded") && $0.contains("trigger=startup") })
        #expect(LogLine.field("aasa.hosts", of: loaded) == "\(Self.hostCount)")
        #expect(LogLine.field("reload.rejected", of: loaded) == "0")
        let listening = try #require(
            await lines.first { LogLine.field("server", of: $0) == "http" && $0.contains("listening") }
        )
        let port = try #require(listening.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })
        for index in [0, Self.hostCount / 2, Self.hostCount - 1] {
            let result = try await curl.run([
                "--silent", "--show-error", "--fail", "--max-time", "10", "-H", "Host: \(Self.host(index))",
                "http://127.0.0.1:\(port)/.well-known/apple-app-site-association",
            ])
            try #require(result.status == 0, "curl \(Self.host(index)): \(result.errorText)")
            #expect(result.outputText.contains("com.h\(index).app"))
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    static func host(_ index: Int) -> String {
        "h\(index).brand.example"
    }
}
