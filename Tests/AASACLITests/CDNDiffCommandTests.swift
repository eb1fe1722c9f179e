import AASAChecks
import AASAKit
import ArgumentParser
import Testing

@testable import aasa

/// The command layer of `aasa cdn-diff` and `aasa validate-cdn`; comparisons
/// against live local servers are in AASAChecksTests.
@Suite("aasa cdn-diff")
struct CDNDiffCommandTests {
    @Test func unreachableOriginIsExitThree() async throws {
        let command = try CDNDiffCommand.parse([
            "example.com", "--origin-base", "http://127.0.0.1:1", "--cdn-base", "http://127.0.0.1:1/a/v1", "--timeout",
            "5",
        ])
        let (output, code) = try await runCapturingAsync { try await command.run(output: $0) }
        #expect(code == 3)
        #expect(output.outText.contains("example.com: origin error"))
        #expect(output.outText.contains("CDN:    http://127.0.0.1:1/a/v1/example.com"))
        #expect(output.out.last?.hasSuffix("1 origin-error") == true)
    }

    @Test func worstOutcomeWins() {
        let diff = JSONDiff(from: ["a": 1], to: ["a": 2])
        let comparisons = [
            CDNComparison(domain: "a.example", originURL: "o", cdnURL: "c", outcome: .inSync),
            CDNComparison(domain: "b.example", originURL: "o", cdnURL: "c", outcome: .differs(diff)),
            CDNComparison(
                domain: "c.example",
                originURL: "o",
                cdnURL: "c",
                outcome: .cdnError(CDNFailure(message: "no copy"))
            ),
        ]
        let output = CDNDiffOutput(comparisons: comparisons)
        #expect(output.exitCode == 2)
        #expect(output.text().contains("b.example: differs (1 change, origin → CDN)\n  ~ a: 1 -> 2"))
        #expect(output.text().hasSuffix("1 in-sync, 1 differs, 1 cdn-error"))
        #expect(CDNDiffOutput(comparisons: Array(comparisons.prefix(2))).exitCode == 1)
    }

    @Test func seedCommandLineIsCDNDiff() throws {
        let seed = try ValidateCDNCommand.parse(["--domain", "example.com", "--format", "json"])
        let invocation = seed.invocation
        #expect(invocation.domains == ["example.com"])
        #expect(invocation.cdnBase == nil)
        #expect(invocation.format == .json)
    }

    @Test func noDomainIsBadInput() async throws {
        let command = try CDNDiffCommand.parse([])
        let (output, code) = try await runCapturingAsync { try await command.run(output: $0) }
        #expect(code == 2)
        #expect(output.error == ["error: name at least one domain, or --from-dir"])
    }
}
