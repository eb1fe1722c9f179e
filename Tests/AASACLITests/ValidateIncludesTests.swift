import AASAChecks
import AASAKit
import Testing

@testable import aasa

/// `aasa validate` and the `include` statements of assetlinks.json: said to
/// be unfollowed by default; with --follow-includes, an include Google would
/// drop is an error. (Following a working include is tested against a local
/// server in AASAChecksTests.AssetLinksIncludeTests.)
@Suite("aasa validate: includes")
struct ValidateIncludesTests {
    static func file(including url: String) -> String {
        "[" + #"{"include":"\#(url)"},"# + ValidateCommandTests.assetLinks.dropFirst()
    }

    @Test func includesAreSaidToBeUnfollowedByDefault() throws {
        let scratch = try ScratchDirectory(["assetlinks.json": Self.file(including: "https://example.com/more.json")])
        let command = try ValidateCommand.parse([scratch.at("assetlinks.json")])
        let (output, code) = try runCapturing { try command.run(output: $0) }
        #expect(code == 0)
        #expect(
            output.outText.contains(
                ":1:13: info: [0].include: https://example.com/more.json was not fetched, so its statements are not validated; pass --follow-includes to follow it [assetlinks.include-not-followed]"
            )
        )
    }

    /// Fetch options without --follow-includes would be ignored: a usage error.
    @Test func fetchOptionsWithoutFollowingAreAUsageError() throws {
        let scratch = try ScratchDirectory(["assetlinks.json": ValidateCommandTests.assetLinks])
        let command = try ValidateCommand.parse([
            scratch.at("assetlinks.json"), "--resolve", "example.com:443:127.0.0.1",
        ])
        let (output, code) = try runCapturing { try command.run(output: $0) }
        #expect(code == 2)
        #expect(output.error.first?.contains("apply only with --follow-includes") == true)
    }

    /// An include that cannot be fetched, or over plain http, loses its
    /// statements: an error, though the file itself is valid.
    @Test(arguments: [
        ("https://127.0.0.1:1/more.json", "could not fetch: connection refused"),
        ("http://127.0.0.1:1/more.json", "not followed: Android follows includes only over https://"),
    ])
    func includeGoogleWouldDropIsAnError(url: String, reason: String) async throws {
        let scratch = try ScratchDirectory(["assetlinks.json": Self.file(including: url)])
        let command = try ValidateCommand.parse([scratch.at("assetlinks.json"), "--follow-includes", "--timeout", "5"])
        let (output, code) = try await runCapturingAsync { try await command.runFollowingIncludes(output: $0) }
        #expect(code == 1)
        #expect(output.outText.contains(":1:13: error: [0].include: \(url): \(reason)"))
        #expect(output.outText.contains("Google drops the statements it would contribute [assetlinks.include-failed]"))
    }

    /// What a followed include contributed is said; a loop warns; a lost
    /// include is an error.
    @Test func eachIncludeSaysWhatBecameOfIt() throws {
        let shared = try #require(AssetLinksFile(bytes: Array(ValidateCommandTests.assetLinks.utf8)))
        func included(_ outcome: IncludedFile.Outcome) -> IncludedFile {
            IncludedFile(
                url: "https://example.com/shared.json",
                includedFrom: "assetlinks.json",
                path: JSONPath([.index(0), .key("include")]),
                depth: 1,
                outcome: outcome
            )
        }
        let followed = ValidationIncludes.diagnostic(for: included(.followed(shared)))
        #expect(followed.severity == .info)
        #expect(followed.message == "https://example.com/shared.json: contributed 1 statement (com.example.app)")
        #expect(ValidationIncludes.diagnostic(for: included(.notFollowed(.alreadyIncluded))).severity == .warning)
        let lost = ValidationIncludes.diagnostic(for: included(.notFollowed(.status("404 Not Found"))))
        #expect(lost.severity == .error)
        #expect(lost.code == "assetlinks.include-failed")
    }
}
