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

        let server = try ServeProcess(directory: directory.path, ulimit: "-n \(Self.limit)")
        defer { server.stop() }
        let port = try await server.start()
        let loaded = try #require(
            await server.lines.first { $0.contains("reloaded") && $0.contains("trigger=startup") }
        )
        #expect(LogLine.field("aasa.hosts", of: loaded) == "\(Self.hostCount)")
        #expect(LogLine.field("reload.rejected", of: loaded) == "0")
        for index in [0, Self.hostCount / 2, Self.hostCount - 1] {
            let result = try await curl.run([
                "--silent", "--show-error", "--fail", "--max-time", "10", "-H", "Host: \(Self.host(index))",
                "http://127.0.0.1:\(port)/.well-known/apple-app-site-association",
            ])
            try #require(result.status == 0, "curl \(Self.host(index)): \(result.errorText)")
            #expect(result.outputText.contains("com.h\(index).app"))
        }
        server.stop()
        #expect(server.process.terminationStatus == 0)
    }

    static func host(_ index: Int) -> String {
        "h\(index).brand.example"
    }
}
