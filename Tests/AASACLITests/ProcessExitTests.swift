import Foundation
import Testing

/// ``ProcessExit/run(_:within:)``, which every test running a child to its
/// end goes through: the child's pipes are read while it runs, and a child
/// that never exits fails its test at the deadline instead of hanging the
/// run.
@Suite("a child process run to its end")
struct ProcessExitTests {
    /// `cat` reading a pipe nobody closes never exits: recorded, killed.
    @Test(.timeLimit(.minutes(1)))
    func aChildThatNeverExitsIsKilledAtTheDeadline() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/cat")
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = Pipe()
        await withKnownIssue("cat waits for its input forever") {
            _ = try await ProcessExit.run(process, within: 1)
        }
        #expect(!process.isRunning)
        #expect(process.terminationReason == .uncaughtSignal)
        try input.fileHandleForWriting.close()
    }

    /// More than a pipe holds on both stdout and stderr: both read whole.
    @Test(.timeLimit(.minutes(1)))
    func bothPipesAreReadWhileTheChildRuns() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "head -c 300000 /dev/zero; head -c 200000 /dev/zero >&2; exit 3"]
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        let written = try await ProcessExit.run(process)
        #expect(written.output.count == 300_000)
        #expect(written.error.count == 200_000)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 3)
    }
}
