import AASAKit
import ArgumentParser
import Testing

@testable import aasa

/// A path `validate` could not read used to appear on stderr only: the JSON
/// showed the good files and nothing else, which a reader of the JSON takes
/// for a clean run.
@Suite("aasa validate: paths that cannot be read")
struct ValidateReadFailureTests {
    func validate(_ arguments: [String]) throws -> (RecordedOutput, Int32) {
        let command = try ValidateCommand.parse(arguments)
        return try runCapturing { try command.run(output: $0) }
    }

    @Test func jsonNamesEveryPathThatCouldNotBeRead() throws {
        let scratch = try ScratchDirectory([
            "good/apple-app-site-association": ValidateCommandTests.valid,
            "empty/readme.txt": "",
        ])
        let missing = scratch.at("missing")
        let (output, code) = try validate([scratch.at("good"), missing, scratch.at("empty"), "--format", "json"])
        #expect(code == 2)
        let json = try JSONParser().parse(output.outText).value
        #expect(json["files"]?.arrayValue?.count == 1)
        let errors = try #require(json["errors"]?.arrayValue)
        #expect(errors.map { $0["path"]?.stringValue } == [missing, scratch.at("empty")])
        #expect(errors.first?["message"] == "no such file or directory")
        #expect(errors.last?["message"]?.stringValue?.contains("under the directory") == true)
        #expect(json["succeeded"] == false)
        #expect(json["exitCode"] == 2)
        #expect(json["strict"] == false)
    }

    @Test func aCleanRunSaysSoInJSON() throws {
        let scratch = try ScratchDirectory(["good/apple-app-site-association": ValidateCommandTests.valid])
        let (output, code) = try validate([scratch.path, "--format", "json", "--strict"])
        #expect(code == 0)
        let json = try JSONParser().parse(output.outText).value
        #expect(json["errors"] == [])
        #expect(json["succeeded"] == true)
        #expect(json["strict"] == true)
        #expect(json["exitCode"] == 0)
    }

    /// Warnings under `--strict` fail the run, and the JSON agrees.
    @Test func strictWarningsAreNotASuccess() throws {
        let scratch = try ScratchDirectory(["h/apple-app-site-association": ValidateFormatTests.warningOnly])
        let (output, code) = try validate([scratch.path, "--format", "json", "--strict"])
        #expect(code == 1)
        let json = try JSONParser().parse(output.outText).value
        #expect(json["succeeded"] == false)
        #expect(json["exitCode"] == 1)
    }

    @Test func theTextSummaryCountsThePathsNotRead() throws {
        let scratch = try ScratchDirectory(["good/apple-app-site-association": ValidateCommandTests.valid])
        let (output, code) = try validate([scratch.path, scratch.at("missing")])
        #expect(code == 2)
        #expect(output.out.last == "1 file, 0 errors, 0 warnings; 1 path could not be read")
    }
}
