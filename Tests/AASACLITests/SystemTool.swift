import Foundation

/// A tool of the machine (curl) that a test uses as an outside referee. A
/// test that needs one fails, naming it, rather than skipping itself.
struct SystemTool {
    let url: URL

    struct Missing: Error, CustomStringConvertible {
        let name: String
        var description: String { "`\(name)` is not on PATH; install it (it is an outside referee for this test)" }
    }

    struct Result {
        let status: Int32
        let output: Data
        let error: Data
        var outputText: String { String(decoding: output, as: UTF8.self) }
        var errorText: String { String(decoding: error, as: UTF8.self) }
    }

    static func locate(_ name: String) throws -> SystemTool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return SystemTool(url: candidate) }
        }
        throw Missing(name: name)
    }

    /// Runs the tool to its end; callers bound its time with its own
    /// options (curl's `--max-time`), and a minute is its deadline.
    func run(_ arguments: [String]) async throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        let written = try await ProcessExit.run(process)
        return Result(status: process.terminationStatus, output: written.output, error: written.error)
    }
}
