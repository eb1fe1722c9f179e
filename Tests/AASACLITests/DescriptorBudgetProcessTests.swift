import Foundation
import Testing

@testable import AASAServer
@testable import aasa

/// `aasa serve` under a real open-file limit (`ulimit -n` in `/bin/sh`,
/// which sets the soft and the hard limit together; `-S` the soft only):
/// a connection flood must never take the descriptors a reload needs.
@Suite("aasa serve under a low open-file limit", .serialized)
struct DescriptorBudgetProcessTests {
    /// Descriptors the server keeps free of connections on this machine.
    static var reserve: Int {
        DescriptorBudget(maxConnections: 1, adminMaxConnections: nil, eventLoops: ServeCommand.eventLoopCount).reserve
    }

    /// A served directory with one host, and the server started under `ulimit`.
    struct Server {
        let directory: URL
        let file: URL
        let serve: ServeProcess

        var process: Process { serve.process }
        var lines: LineReader { serve.lines }

        init(ulimit: String) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-fd-\(UUID())")
            let host = directory.appendingPathComponent("brand.example")
            try FileManager.default.createDirectory(at: host, withIntermediateDirectories: true)
            file = host.appendingPathComponent("apple-app-site-association")
            serve = try ServeProcess(
                directory: directory.path,
                ulimit: ulimit,
                arguments: ["--no-access-log"],
                environment: ["AASA_LIMITS_IDLE_TIMEOUT": "300"]
            )
        }

        func write(_ app: String) throws {
            try Data(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.\#(app)"],"components":[{"/":"/*"}]}]}}"#.utf8)
                .write(to: file)
        }

        func start() async throws -> Int {
            try await serve.start()
        }

        func stop() {
            serve.stop()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    static let request = "GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: brand.example\r\n\r\n"

    /// Room for exactly 40 connections beside the reserve, and no way to
    /// raise it: the server lowers its cap to 40 and says so; 40 connections
    /// are held (each answered 200, so each was admitted), 60 more are
    /// answered 503 and closed, and a file changed meanwhile is served after
    /// SIGHUP (the reload found its descriptors).
    @Test(.timeLimit(.minutes(1))) func aFloodAtTheLoweredCapLeavesTheReloadItsDescriptors() async throws {
        let limit = Self.reserve + 40
        let server = try Server(ulimit: "-n \(limit)")
        defer { server.stop() }
        try server.write("com.first.app")
        let port = try await server.start()

        let warning = try #require(
            await server.lines.first { $0.contains("open-file limit") && $0.contains("warning") }
        )
        #expect(LogLine.field("limit", of: warning) == "\(limit)")
        #expect(LogLine.field("maxConnections", of: warning) == "10000")
        #expect(warning.contains("ulimit -n 10") && warning.contains("LimitNOFILE=") && warning.contains("nofile="))
        let cap = try #require(LogLine.field("effectiveMaxConnections", of: warning).flatMap { Int($0) })
        #expect(cap == 40)

        var held: [HeldConnection] = []
        for _ in 0..<cap {
            let connection = try HeldConnection(port: port)
            try connection.write(Self.request)
            let response = try #require(try connection.readResponse())
            #expect(response.status == 200 && response.body.contains("com.first.app"))
            held.append(connection)
        }
        #expect(held.count == cap, "the held connections reached the effective cap")

        // More than the limit leaves, all connected before any is read: each
        // is refused at once, never left hanging in the backlog while the
        // server is out of descriptors.
        let refused = try (0..<60).map { _ in try HeldConnection(port: port) }
        for connection in refused {
            #expect(try connection.readToEnd().hasPrefix("HTTP/1.1 503"))
        }

        try server.write("com.second.app")
        kill(server.process.processIdentifier, SIGHUP)
        _ = try #require(await server.lines.first { $0.contains("reloaded") && $0.contains("trigger=signal") })
        for connection in [held[0], held[cap - 1]] {
            try connection.write(Self.request)
            let response = try #require(try connection.readResponse())
            #expect(response.status == 200 && response.body.contains("com.second.app"))
        }
        server.stop()
        #expect(server.process.terminationStatus == 0)
    }

    /// A soft limit below the caps and a hard limit above it: the server
    /// raises its own soft limit (as far as the hard limit allows) and then
    /// holds more connections than the old soft limit would have allowed.
    @Test(.timeLimit(.minutes(1))) func aLowSoftLimitIsRaised() async throws {
        let soft = Self.reserve + 20
        let ours = try #require(DescriptorLimit.current())
        let server = try Server(ulimit: "-S -n \(soft)")
        defer { server.stop() }
        try server.write("com.first.app")
        let port = try await server.start()
        let raised = try #require(await server.lines.first { $0.contains("raised the open-file limit") })
        let needed = try #require(LogLine.field("needed", of: raised).flatMap { Int($0) })
        let to = try #require(LogLine.field("to", of: raised).flatMap { Int($0) })
        #expect(LogLine.field("from", of: raised) == "\(soft)")
        #expect(to == min(needed, ours.ceiling))

        // Twice the old soft limit in connections, each answered (this
        // process may need a higher limit of its own for that: macOS starts
        // it at 256).
        let wanted = min(2 * soft, to - Self.reserve)
        if ours.soft < wanted + 64 { _ = DescriptorLimit.setSoft(min(ours.ceiling, wanted + 256)) }
        var held: [HeldConnection] = []
        for _ in 0..<wanted {
            let connection = try HeldConnection(port: port)
            try connection.write(Self.request)
            #expect(try connection.readResponse()?.status == 200)
            held.append(connection)
        }
        #expect(held.count > soft)
    }

    /// Below the reserve plus one connection: no start, exit 2, and the
    /// message says how to raise the limit.
    @Test(.timeLimit(.minutes(1))) func aLimitBelowTheReserveExits2() async throws {
        let server = try Server(ulimit: "-n \(Self.reserve)")
        defer { server.stop() }
        try server.write("com.first.app")
        try server.process.run()
        let line = try #require(await server.lines.first { $0.contains("cannot start") })
        try #require(server.serve.exit.wait(), "the server did not exit within 20 s")
        #expect(server.process.terminationStatus == 2)
        #expect(line.contains("too low to serve") && line.contains("ulimit -n") && line.contains("LimitNOFILE="))
    }
}
