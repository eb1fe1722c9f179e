import AASAKit
import ArgumentParser
import Testing

@testable import aasa

/// `--from-dir` lists the hosts to check from the directory's names; a
/// `*.` wildcard directory names no host, and used to be skipped without a
/// word, so its hosts were never checked while the run looked complete.
@Suite("aasa check and cdn-diff: wildcard directories in --from-dir")
struct FromDirWildcardTests {
    func scratch() throws -> ScratchDirectory {
        try ScratchDirectory([
            "aasa/example.com/apple-app-site-association": CDNDiffCommandTests.aasa,
            "aasa/*.brand.example/apple-app-site-association": CDNDiffCommandTests.aasa,
        ])
    }

    @Test func checkNamesTheSkippedWildcard() async throws {
        let scratch = try scratch()
        let command = try CheckCommand.parse([
            "--from-dir", scratch.at("aasa"), "--base-url", "http://127.0.0.1:1", "--format", "json",
        ])
        let (output, code) = try await runCapturingAsync { try await command.run(output: $0) }
        #expect(code == 1)
        let json = try JSONParser().parse(output.outText).value
        #expect(json["hosts"]?.arrayValue?.compactMap { $0["host"]?.stringValue } == ["example.com"])
        #expect(output.error.count == 1, "\(output.error)")
        let note = try #require(output.error.first)
        #expect(note.hasPrefix("note: --from-dir skips *.brand.example: "), "\(note)")
        #expect(note.contains("per host name"))
        #expect(note.contains("aasa check <name>.brand.example --from-dir \(scratch.at("aasa"))"))
    }

    @Test func cdnDiffNamesTheSkippedWildcard() async throws {
        let scratch = try scratch()
        let command = try CDNDiffCommand.parse([
            "--from-dir", scratch.at("aasa"), "--cdn-base", "http://127.0.0.1:1/a/v1", "--timeout", "5",
        ])
        let (output, code) = try await runCapturingAsync { try await command.run(output: $0) }
        #expect(code == 1)
        #expect(output.outText.contains("example.com: CDN error"))
        #expect(output.error.count == 1, "\(output.error)")
        #expect(output.error.first?.hasPrefix("note: --from-dir skips *.brand.example: ") == true)
    }

    /// The note's advice works: a host named on the command line is compared
    /// with the wildcard's file, as the server would serve it.
    @Test func aNamedHostIsComparedWithItsWildcardFile() throws {
        let scratch = try scratch()
        let invocation = try CDNDiffCommand.parse(["shop.brand.example", "--from-dir", scratch.at("aasa")]).invocation
        let sources = try invocation.sources(resolve: [])
        guard case .file(let path, _)? = sources.first?.1 else {
            Issue.record("expected the wildcard's file, got \(sources)")
            return
        }
        #expect(path == scratch.at("aasa/*.brand.example/apple-app-site-association"))
        #expect(InputFiles.servingFile(directory: scratch.at("aasa"), host: "brand.example") == nil)
        #expect(InputFiles.servingFile(directory: scratch.at("aasa"), host: "a.b.brand.example") != nil)
    }

    @Test func noWildcardNoNote() throws {
        let scratch = try ScratchDirectory(["aasa/example.com/apple-app-site-association": CDNDiffCommandTests.aasa])
        #expect(InputFiles.skippedWildcardsNote(directory: scratch.at("aasa"), command: "check") == nil)
    }
}
