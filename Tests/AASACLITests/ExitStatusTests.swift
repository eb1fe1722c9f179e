import ArgumentParser
import Testing

@testable import aasa

/// The exit statuses the tool promises CI, decided in-process by
/// `AASA.run(arguments:output:)`, the body of `aasa`'s `main()`.
@Suite("aasa exit statuses")
struct ExitStatusTests {
    func run(_ arguments: [String]) async -> (RecordedOutput, Int32) {
        let (output, record) = CommandOutput.recording()
        let status = await AASA.run(arguments: arguments, output: output)
        return (record, status)
    }

    @Test(arguments: [
        ["validate", "--frobnicate", "x"],
        ["validate"],
        ["validate", "x", "--format", "yaml"],
        ["no-such-command"],
        ["dev-cert", "--days", "9999", "localhost"],
    ])
    func usageErrorsExitTwo(_ arguments: [String]) async {
        let (output, status) = await run(arguments)
        #expect(status == 2, "\(arguments)")
        #expect(output.out.isEmpty)
        #expect(output.error.first?.hasPrefix("Error: ") == true, "\(output.error)")
    }

    @Test(arguments: [["--help"], ["validate", "--help"], ["help", "validate"]])
    func helpExitsZeroOnStdout(_ arguments: [String]) async {
        let (output, status) = await run(arguments)
        #expect(status == 0)
        #expect(output.outText.contains("USAGE: aasa"))
        #expect(output.error.isEmpty)
    }

    @Test func versionNamesTheBuild() async {
        let (output, status) = await run(["--version"])
        #expect(status == 0)
        #expect(output.out == ["aasa \(BuildInfo.version) (commit \(BuildInfo.commit))"])
    }

    @Test func aDevelopmentBuildSaysSo() {
        // scripts/release.sh rewrites these in its staged copy; the checkout
        // must keep saying that it is not a release.
        #expect(BuildInfo.versionLine == "aasa 0.0.0-dev (commit unknown)")
    }

    @Test func findingsKeepTheirStatus() async throws {
        let scratch = try ScratchDirectory(["apple-app-site-association": "[1]"])
        let (_, status) = await run(["validate", scratch.at("apple-app-site-association"), "--format", "json"])
        #expect(status == 1)
    }

    @Test(arguments: [Int32(0), 1, 2, 3])
    func commandExitCodesPassThrough(_ code: Int32) {
        #expect(AASA.exitStatus(for: ExitCode(code)) == code)
    }

    struct Unmapped: Error {}

    @Test func errorsNoCommandMappedAreNotFindings() {
        #expect(AASA.exitStatus(for: Unmapped()) == 2)
        #expect(AASA.exitStatus(for: ValidationError("bad")) == 2)
        #expect(AASA.exitStatus(for: CleanExit.message("done")) == 0)
    }
}
