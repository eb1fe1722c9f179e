import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `aasa serve` whose stderr nobody reads, or whose reader went away: the
/// log must never stop or kill the server. (Logging on the event loop, one
/// blocking write per line, stalled every request once the 64 KiB pipe was
/// full, and `FileHandle.write` trapped on EPIPE.) Started with the
/// arguments of a ``ServeProcess``, but not as one: that one reads stderr
/// all the time, which is what these tests must not do, and turns the admin
/// port off, which they ask.
@Suite("aasa serve with a stuck or closed log reader", .serialized)
struct LogWriterProcessTests {
    /// The server, its ports, and the read end of its stderr.
    struct Server {
        let process = Process()
        let exit: ProcessExit
        let directory: URL
        let stderr = Pipe()
        var port = 0
        var adminPort = 0

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-log-\(UUID())")
            let host = directory.appendingPathComponent("brand.example")
            try FileManager.default.createDirectory(at: host, withIntermediateDirectories: true)
            try Data(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.brand.app"],"paths":["*"]}]}}"#.utf8)
                .write(to: host.appendingPathComponent("apple-app-site-association"))
            process.executableURL = try BuiltExecutable.locate("aasa")
            // `--admin-port 0` turns the admin port off: pick a free one instead.
            adminPort = try Self.freePort()
            process.arguments = ServeProcess.arguments(directory: directory.path, adminPort: adminPort)
            process.standardError = stderr
            exit = ProcessExit(of: process)
        }

        /// Starts it and reads its stderr only until both ports listen.
        mutating func start() throws {
            try process.run()
            let text = Self.read(stderr.fileHandleForReading.fileDescriptor) { text in
                text.split(separator: "\n").filter { $0.contains("listening") }.count >= 2
            }
            for line in text.split(separator: "\n") where line.contains("listening") {
                let bound = try #require(line.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })
                if LogLine.field("server", of: String(line)) == "http" { port = bound }
            }
            try #require(port > 0, "no listening line in: \(text)")
        }

        func stop() {
            exit.terminate(process)
            try? FileManager.default.removeItem(at: directory)
        }

        /// A port nothing listens on now, below the ports the kernel hands
        /// out for port 0 and for outgoing connections (from 32768 on Linux,
        /// 49152 on Darwin). One of those, bound and closed here, could be
        /// taken by any connection of the tests running meanwhile before the
        /// server binds it, and the server would then not start.
        static func freePort() throws -> Int {
            for port in (20_000..<32_768).shuffled().prefix(100) where try isFree(port) {
                return port
            }
            throw HeldConnection.Failure(description: "no free port on 127.0.0.1 in 20000-32767")
        }

        /// Whether `port` of 127.0.0.1 can be bound now (bound, then closed).
        static func isFree(_ port: Int) throws -> Bool {
            #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard descriptor >= 0 else { throw HeldConnection.Failure.system("socket") }
            defer { close(descriptor) }
            var address = sockaddr_in()
            #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
        }

        /// Reads `descriptor` until `done` holds for the text read, the
        /// pipe ends, or 30 seconds pass without a byte.
        static func read(_ descriptor: Int32, until done: (String) -> Bool) -> String {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while !done(String(decoding: bytes, as: UTF8.self)) {
                var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&request, 1, 30_000) > 0 else { break }
                let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                bytes += buffer.prefix(count)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    static let request = "GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: brand.example\r\n\r\n"

    /// `count` requests on one keep-alive connection, each answered 200
    /// within the connection's 10-second socket timeout.
    static func serve(_ count: Int, port: Int) throws {
        let connection = try HeldConnection(port: port)
        for index in 0..<count {
            try connection.write(request)
            let response = try connection.readResponse()
            try #require(response?.status == 200, "request \(index) of \(count)")
        }
    }

    /// One admin GET on a new connection.
    static func admin(_ path: String, port: Int) throws -> (status: Int, body: String)? {
        let connection = try HeldConnection(port: port)
        try connection.write("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        return try connection.readResponse()
    }

    /// 6,000 access-log lines (over 1 MiB with their overhead: past the
    /// pipe's 64 KiB and the writer's 1 MiB queue) while nobody reads
    /// stderr: every request, a new connection and `/healthz` are answered;
    /// the lines past the queue are counted in the metric; once stderr is
    /// read again, a line says how many were dropped; SIGTERM exits 0.
    @Test(.timeLimit(.minutes(2))) func aStderrNobodyReadsNeverStallsTheServer() throws {
        var server = try Server()
        defer { server.stop() }
        try server.start()

        try Self.serve(6_000, port: server.port)
        try Self.serve(1, port: server.port)
        #expect(try Self.admin("/healthz", port: server.adminPort)?.status == 200)
        let metrics = try #require(try Self.admin("/metrics", port: server.adminPort))
        let dropped = metrics.body.split(separator: "\n")
            .first { $0.hasPrefix("aasa_log_lines_dropped_total ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") }
        #expect((dropped ?? 0) > 0, "\(metrics.body)")

        kill(server.process.processIdentifier, SIGTERM)
        let rest = Server.read(server.stderr.fileHandleForReading.fileDescriptor) { _ in false }
        try #require(server.exit.wait(), "no exit within 20 s of SIGTERM")
        #expect(rest.contains("log lines dropped"))
        #expect(server.process.terminationStatus == 0)
        #expect(server.process.terminationReason == .exit)
    }

    /// The reader of stderr closes its end (`aasa serve 2>&1 | head`):
    /// every line now fails with EPIPE; the server neither dies of SIGPIPE
    /// nor traps, keeps answering, and exits 0 on SIGTERM. (On Linux NIO
    /// ignores SIGPIPE process-wide once it opens a socket; on Darwin it
    /// does not, so there this also tests the server's own ignore.)
    @Test(.timeLimit(.minutes(1))) func aClosedStderrNeverKillsTheServer() throws {
        var server = try Server()
        defer { server.stop() }
        try server.start()
        try server.stderr.fileHandleForReading.close()

        try Self.serve(500, port: server.port)
        #expect(try Self.admin("/healthz", port: server.adminPort)?.status == 200)
        try Self.serve(1, port: server.port)

        server.stop()
        try #require(!server.process.isRunning)
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 0)
    }
}
