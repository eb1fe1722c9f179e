import AASAChecks
import AASAKit
import ArgumentParser
import Foundation
import Testing

@testable import aasa

/// The command layer of `aasa cdn-diff` and `aasa validate-cdn`; comparisons
/// against live local servers are in AASAChecksTests.
@Suite("aasa cdn-diff")
struct CDNDiffCommandTests {
    static let aasa =
        #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/shop/*"}]}]}}"#

    private func run(_ arguments: [String]) async throws -> (RecordedOutput, Int32) {
        let command = try CDNDiffCommand.parse(arguments)
        return try await runCapturingAsync { try await command.run(output: $0) }
    }

    /// An unreachable origin is a finding (exit 1), not bad input: 2 stays
    /// reserved for a command line CI must fix.
    @Test func unreachableOriginIsAFinding() async throws {
        let (output, code) = try await run([
            "example.com", "--origin-base", "http://127.0.0.1:1", "--cdn-base", "http://127.0.0.1:1/a/v1", "--timeout",
            "5",
        ])
        #expect(code == 1)
        #expect(output.outText.contains("example.com: origin error"))
        #expect(output.outText.contains("connection refused (connecting to 127.0.0.1:1)"))
        #expect(output.outText.contains("CDN:    http://127.0.0.1:1/a/v1/example.com"))
        #expect(output.out.last?.hasSuffix("1 origin-error") == true)
    }

    /// `--from-dir` compares with the files: the origin is never asked, so
    /// it cannot end in an origin error, whatever the origin's state.
    @Test func fromDirComparesWithTheFilesNotTheOrigin() async throws {
        let scratch = try ScratchDirectory(["aasa/example.com/apple-app-site-association": Self.aasa])
        let (output, code) = try await run([
            "--from-dir", scratch.at("aasa"), "--cdn-base", "http://127.0.0.1:1/a/v1", "--timeout", "5",
        ])
        #expect(code == 1)
        #expect(output.outText.contains("example.com: CDN error"))
        #expect(!output.outText.contains("origin"))
        #expect(output.outText.contains("  file: \(scratch.at("aasa"))/example.com/apple-app-site-association"))
        let invocation = try CDNDiffCommand.parse(["--from-dir", scratch.at("aasa")]).invocation
        let sources = try invocation.sources(resolve: [])
        #expect(sources.map(\.0) == ["example.com"])
        guard case .file(let path, let bytes)? = sources.first?.1 else {
            Issue.record("expected a local file")
            return
        }
        #expect(path.hasSuffix("aasa/example.com/apple-app-site-association"))
        #expect(bytes == Array(Self.aasa.utf8))
    }

    /// The live origin stays available with an explicit flag.
    @Test func originFlagComparesWithTheLiveOrigin() throws {
        let scratch = try ScratchDirectory(["aasa/example.com/apple-app-site-association": Self.aasa])
        let invocation = try CDNDiffCommand.parse([
            "--from-dir", scratch.at("aasa"), "--origin", "--origin-base", "https://127.0.0.1:8443",
        ]).invocation
        guard case .origin(let target)? = try invocation.sources(resolve: []).first?.1 else {
            Issue.record("expected the origin")
            return
        }
        #expect(
            target.url(HostTarget.wellKnownPath) == "https://example.com:8443/.well-known/apple-app-site-association"
        )
        #expect(target.connectTo == "127.0.0.1")
    }

    @Test func duplicateDomainsAreComparedOnce() throws {
        let sources = try CDNDiffCommand.parse(["example.com", "EXAMPLE.com", "https://example.com/"]).invocation
            .sources(resolve: [])
        #expect(sources.map(\.0) == ["example.com"])
    }

    @Test func worstOutcomeFailsAndStrictFailsOnWarnings() {
        let diff = JSONDiff(from: ["a": 1], to: ["a": 2])
        let reference = CDNComparison.Reference.file(path: "f")
        let comparisons = [
            CDNComparison(domain: "a.example", reference: reference, cdnURL: "c", outcome: .inSync),
            CDNComparison(domain: "b.example", reference: reference, cdnURL: "c", outcome: .differs(diff)),
            CDNComparison(
                domain: "c.example",
                reference: reference,
                cdnURL: "c",
                outcome: .cdnError(CDNFailure(message: "no copy"))
            ),
        ]
        let output = CDNDiffOutput(comparisons: comparisons)
        #expect(output.exitCode == 1)
        #expect(output.text().contains("b.example: differs (1 change, file → CDN)\n  ~ a: 1 -> 2"))
        #expect(output.text().hasSuffix("1 in-sync, 1 differs, 1 cdn-error"))
        #expect(CDNDiffOutput(comparisons: Array(comparisons.prefix(1))).exitCode == 0)

        var warned = comparisons[0]
        warned.referenceFindings = [
            Diagnostic(.warning, code: "lint.test", path: .root, message: "a warning")
        ]
        #expect(warned.status == .warn)
        #expect(CDNDiffOutput(comparisons: [warned]).exitCode == 0)
        #expect(CDNDiffOutput(comparisons: [warned], strict: true).exitCode == 1)
        #expect(
            CDNDiffOutput(comparisons: [warned], strict: true).text().contains("warning: (root): a warning [lint.test]")
        )
    }

    @Test func seedCommandLineIsCDNDiff() throws {
        let seed = try ValidateCDNCommand.parse(["--domain", "example.com", "--format", "json"])
        let invocation = seed.invocation
        #expect(invocation.domains == ["example.com"])
        #expect(invocation.cdnBase == nil)
        #expect(invocation.format == .json)
        #expect(invocation.fromDir == nil && invocation.file == nil)
    }

    @Test func noDomainIsBadInput() async throws {
        let (output, code) = try await run([])
        #expect(code == 2)
        #expect(output.error == ["error: name at least one domain, or --from-dir"])
    }

    @Test func hostMissingFromTheDirectoryIsBadInputWithASuggestion() async throws {
        let scratch = try ScratchDirectory(["aasa/example.com/apple-app-site-association": Self.aasa])
        let (output, code) = try await run(["exampel.com", "--from-dir", scratch.at("aasa")])
        #expect(code == 2)
        #expect(output.error.first?.contains("has no file for exampel.com") == true)
        #expect(output.error.first?.hasSuffix("(did you mean example.com?)") == true)
    }

    @Test(arguments: [
        ["example.com", "--file", "a.json", "--from-dir", "aasa"],
        ["example.com", "www.example.com", "--file", "a.json"],
        ["example.com", "--file", "a.json", "--origin"],
        ["example.com", "--file", "/nonexistent/a.json"],
        ["--from-dir", "aasa", "--origin-base", "http://127.0.0.1:8080"],
        ["example.com", "--cdn-base", "not a url"],
        ["example.com", "--resolve", "example.com:443"],
        ["example.com", "--resolve", "example.com:https:127.0.0.1"],
        ["example.com", "--resolve", "exmaple.com:443:127.0.0.1"],
        ["example.com", "--resolve", "example.com:8443:127.0.0.1"],
        ["example.com", "--timeout", "0"],
    ])
    func badInputExitsTwoBeforeAnyFetch(arguments: [String]) async throws {
        let (output, code) = try await run(arguments)
        #expect(code == 2)
        #expect(output.error.first?.hasPrefix("error: ") == true)
        #expect(output.out.isEmpty)
    }

    @Test func resolveMovesTheOriginConnection() async throws {
        let (output, code) = try await run([
            "example.com", "--resolve", "example.com:443:127.0.0.1", "--cdn-base", "http://127.0.0.1:1/a/v1",
            "--timeout", "5",
        ])
        #expect(code == 1)
        #expect(
            output.outText.contains(
                "origin: https://example.com/.well-known/apple-app-site-association via 127.0.0.1:443"
            )
        )
    }

    @Test func unusedResolveNamesTheProblem() async throws {
        let (typo, _) = try await run(["example.com", "--resolve", "exmaple.com:443:127.0.0.1"])
        #expect(
            typo.error == [
                "error: --resolve exmaple.com:443:127.0.0.1: no request goes to exmaple.com (did you mean example.com?)"
            ]
        )
        let (port, _) = try await run(["example.com", "--resolve", "example.com:8443:127.0.0.1"])
        #expect(
            port.error == [
                "error: --resolve example.com:8443:127.0.0.1: example.com is fetched on example.com:443, not port 8443"
            ]
        )
    }
}
