import Foundation
import Testing

/// `aasa serve` in a process of its own, as the process tests start it:
/// serving `directory` on port 0 of 127.0.0.1 (HTTP; the admin port off),
/// reloading only when told (`--poll-interval 0`), with its stderr read
/// line by line.
struct ServeProcess {
    let process = Process()
    /// The server's stderr: its log lines.
    let lines: LineReader
    /// Its exit, awaited with a deadline.
    let exit: ProcessExit

    /// - Parameters:
    ///   - ulimit: the arguments of a `ulimit` that `/bin/sh` runs before
    ///     it execs the server (`-n 256` sets the soft and the hard limit,
    ///     so the server cannot raise it back; `-S -n 256` the soft only).
    ///   - arguments: more `serve` arguments (`--tls-port 0`).
    ///   - environment: variables added to this process's own.
    init(
        directory: String,
        ulimit: String? = nil,
        arguments: [String] = [],
        environment: [String: String] = [:]
    ) throws {
        let executable = try BuiltExecutable.locate("aasa")
        let serve = Self.arguments(directory: directory) + arguments
        if let ulimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit \(ulimit) && exec \"$0\" \"$@\"", executable.path] + serve
        } else {
            process.executableURL = executable
            process.arguments = serve
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        }
        let stderr = Pipe()
        process.standardError = stderr
        lines = LineReader(stderr.fileHandleForReading)
        exit = ProcessExit(of: process)
    }

    /// The `serve` arguments of the process tests; `adminPort` 0 turns the
    /// admin port off.
    static func arguments(directory: String, adminPort: Int = 0) -> [String] {
        [
            "serve", "--dir", directory, "--bind", "127.0.0.1", "--port", "0", "--admin-port", String(adminPort),
            "--poll-interval", "0",
        ]
    }

    /// Starts the server and waits for it to listen.
    /// - Returns: the HTTP port.
    func start() async throws -> Int {
        try process.run()
        return try await port(of: "http")
    }

    /// The port `server` (`http`, `https`) listens on, from its log line.
    func port(of server: String) async throws -> Int {
        let line = try #require(
            await lines.first { LogLine.field("server", of: $0) == server && $0.contains("listening") },
            "no listening line for \(server)"
        )
        return try #require(line.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })
    }

    /// Sends SIGTERM, as a service manager stops it, and waits for the exit
    /// (`process.terminationStatus` then says how it went); nothing when it
    /// is not running. Not gone within 20 s: recorded, and killed.
    func stop() {
        exit.terminate(process)
    }
}
