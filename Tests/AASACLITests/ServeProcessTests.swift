import Foundation
import Testing

/// `aasa serve` as a user runs it: the real executable in its own process,
/// started, asked for a file, reloaded with SIGHUP, stopped with SIGTERM.
/// (Everything else tests the server in-process; this covers the command's
/// own start-up: configuration, logging and metrics bootstrap, signals.)
@Suite("aasa serve process", .serialized)
struct ServeProcessTests {
    @Test(.timeLimit(.minutes(1)))
    func servesReloadsOnSIGHUPAndStopsOnSIGTERM() async throws {
        let curl = try SystemTool.locate("curl")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-serve-\(UUID())")
        let host = directory.appendingPathComponent("brand.example")
        try FileManager.default.createDirectory(at: host, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = host.appendingPathComponent("apple-app-site-association")
        func write(_ app: String) throws {
            try Data(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.\#(app)"],"components":[{"/":"/*"}]}]}}"#.utf8)
                .write(to: file)
        }
        try write("com.first.app")

        // Without polling (`--poll-interval 0`), only the signal can reload.
        let server = try ServeProcess(directory: directory.path)
        defer { server.stop() }
        let port = try await server.start()
        #expect(try await Self.get(curl, port: port).contains("com.first.app"))

        try write("com.second.app")
        kill(server.process.processIdentifier, SIGHUP)
        _ = try #require(await server.lines.first { $0.contains("reloaded") && $0.contains("trigger=signal") })
        #expect(try await Self.get(curl, port: port).contains("com.second.app"))

        server.stop()
        #expect(!server.process.isRunning)
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 0)
    }

    /// A GET naming the host in its `Host` header. curl, not URLSession:
    /// on Darwin, URLSession owns the `Host` header and may replace the one
    /// set on the request with `127.0.0.1:<port>`, which names no served host.
    static func get(_ curl: SystemTool, port: Int) async throws -> String {
        let result = try await curl.run([
            "--silent", "--show-error", "--fail", "--max-time", "10", "-H", "Host: brand.example",
            "http://127.0.0.1:\(port)/.well-known/apple-app-site-association",
        ])
        try #require(result.status == 0, "curl: \(result.errorText)")
        return result.outputText
    }
}

/// Lines of a pipe, read on a background thread, awaited one predicate at a time.
final class LineReader: @unchecked Sendable {
    // @unchecked: `lines` and `waiters` are only touched under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []
    private var waiters: [Waiter] = []
    private var nextWaiter = 0
    private var ended = false

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    self.add(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            self.finish()
        }
    }

    private struct Waiter {
        var id: Int
        var predicate: (String) -> Bool
        var continuation: CheckedContinuation<String?, Never>
    }

    /// The first line (already read or still to come) satisfying `predicate`;
    /// nil if the pipe closes first or no such line comes within `deadline`
    /// seconds (so a process that never prints it fails the test instead of
    /// hanging it). Each line is handed out once.
    func first(within deadline: Double = 30, where predicate: @escaping (String) -> Bool) async -> String? {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let index = lines.firstIndex(where: predicate) {
                let line = lines.remove(at: index)
                lock.unlock()
                continuation.resume(returning: line)
            } else if ended {
                lock.unlock()
                continuation.resume(returning: nil)
            } else {
                let id = nextWaiter
                nextWaiter += 1
                waiters.append(Waiter(id: id, predicate: predicate, continuation: continuation))
                lock.unlock()
                DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { [self] in expire(id) }
            }
        }
    }

    private func expire(_ id: Int) {
        lock.lock()
        guard let index = waiters.firstIndex(where: { $0.id == id }) else {
            lock.unlock()
            return
        }
        let waiter = waiters.remove(at: index)
        lock.unlock()
        waiter.continuation.resume(returning: nil)
    }

    private func add(_ line: String) {
        lock.lock()
        if let index = waiters.firstIndex(where: { $0.predicate(line) }) {
            let waiter = waiters.remove(at: index)
            lock.unlock()
            waiter.continuation.resume(returning: line)
        } else {
            lines.append(line)
            lock.unlock()
        }
    }

    private func finish() {
        lock.lock()
        ended = true
        let waiting = waiters
        waiters = []
        lock.unlock()
        for waiter in waiting { waiter.continuation.resume(returning: nil) }
    }
}

/// Reading the server's text log lines (`key=value` fields, values with
/// spaces quoted).
enum LogLine {
    /// The value of field `key`, unquoted; nil when the line has none.
    static func field(_ key: String, of line: String) -> String? {
        for word in line.split(separator: " ") where word.hasPrefix("\(key)=") {
            let value = word.dropFirst(key.count + 1)
            return String(value.hasPrefix("\"") && value.hasSuffix("\"") ? value.dropFirst().dropLast() : value)
        }
        return nil
    }
}
