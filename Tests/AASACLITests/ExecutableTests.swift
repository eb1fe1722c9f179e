import Foundation
import Testing

/// The built `aasa` executable run as CI runs it: what matters here is the
/// process's exit status, which in-process tests cannot see.
@Suite("aasa executable")
struct ExecutableTests {
    /// Runs `aasa` with `arguments` to the end, in `directory` (the test's
    /// own when nil); a minute at most, then killed.
    static func run(
        _ arguments: [String],
        in directory: URL? = nil
    ) async throws -> (
        status: Int32, out: String, error: String
    ) {
        let process = Process()
        process.executableURL = try BuiltExecutable.locate("aasa")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        let written = try await ProcessExit.run(process)
        return (
            process.terminationStatus, String(decoding: written.output, as: UTF8.self),
            String(decoding: written.error, as: UTF8.self)
        )
    }

    @Test(.timeLimit(.minutes(1)), arguments: [["validate", "--frobnicate", "x"], ["validate"], ["bogus"]])
    func usageErrorsExitTwo(_ arguments: [String]) async throws {
        let result = try await Self.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.error)")
        #expect(result.error.contains("Usage: aasa") || result.error.contains("Error:"))
    }

    @Test(.timeLimit(.minutes(1)))
    func versionAndHelpExitZero() async throws {
        let version = try await Self.run(["--version"])
        #expect(version.status == 0)
        #expect(version.out.hasPrefix("aasa ") && version.out.contains("(commit "))
        let help = try await Self.run(["--help"])
        #expect(help.status == 0)
        #expect(help.out.contains("USAGE: aasa"))
    }

    @Test(.timeLimit(.minutes(1)))
    func validateExitsOneForFindingsAndTwoForBadInput() async throws {
        let scratch = try ScratchDirectory(["apple-app-site-association": "{\"applinks\":\n  {\"details\": 1}}"])
        let file = scratch.at("apple-app-site-association")
        let findings = try await Self.run(["validate", file])
        #expect(findings.status == 1)
        #expect(findings.out.hasPrefix("\(file):2:15: error: applinks.details: expected array or object, got number"))
        let missing = try await Self.run(["validate", scratch.at("absent")])
        #expect(missing.status == 2)
        #expect(missing.error.contains("no such file or directory"))
    }
}
