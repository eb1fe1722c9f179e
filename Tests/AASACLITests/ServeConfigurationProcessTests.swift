import Foundation
import Testing

/// `aasa serve` refuses a bad configuration before it starts anything:
/// exit 2, every problem on stderr, nothing listening.
@Suite("aasa serve configuration", .serialized)
struct ServeConfigurationProcessTests {
    /// Runs `aasa serve` with `arguments` and `environment` (nothing of the
    /// test runner's own environment), returning its exit status and stderr.
    static func serve(_ arguments: [String], environment: [String: String] = [:]) async throws -> (Int32, String) {
        let process = Process()
        process.executableURL = try BuiltExecutable.locate("aasa")
        process.arguments = ["serve"] + arguments
        process.environment = environment
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = Pipe()
        let written = try await ProcessExit.run(process)
        return (process.terminationStatus, String(decoding: written.error, as: UTF8.self))
    }

    @Test(.timeLimit(.minutes(1)))
    func misspeltKeyInvalidVariableAndFlagExitTwo() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-serve-config-\(UUID()).json")
        try Data(#"{"files": {"pollIntervall": 2}}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, stderr) = try await Self.serve(
            ["--config", file.path, "--port=-1", "--admin-port", "0"],
            environment: ["AASA_FILES_POLL_INTERVAL": "abc", "AASA_LOG_LEVL": "debug"]
        )
        #expect(status == 2)
        #expect(
            stderr.contains(
                "\(file.path): files.pollIntervall: unknown key \"pollIntervall\"; did you mean \"pollInterval\"?"
            )
        )
        #expect(stderr.contains("AASA_FILES_POLL_INTERVAL (files.pollInterval): expected a number, got \"abc\""))
        #expect(stderr.contains("AASA_LOG_LEVL: not a setting of aasa serve; did you mean AASA_LOG_LEVEL?"))
        #expect(stderr.contains("--port (http.port): expected a number >= 0, got -1"))
        #expect(!stderr.contains("listening"))
    }
}
