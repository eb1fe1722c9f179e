import AASAChecks
import AASAKit
import ArgumentParser
import Foundation
import Synchronization
import Testing

@testable import aasa

/// Runs an async command's `run(output:)` like `runCapturing` does a sync one.
func runCapturingAsync(_ body: (CommandOutput) async throws -> Void) async throws -> (RecordedOutput, Int32) {
    let (output, record) = CommandOutput.recording()
    do {
        try await body(output)
        return (record, 0)
    } catch let exit as ExitCode {
        return (record, exit.rawValue)
    }
}

/// The command layer of `aasa check`: arguments, rendering, exit codes. The
/// checks themselves are tested against live local servers in AASAChecksTests;
/// here the only "server" is a closed loopback port.
@Suite("aasa check")
struct CheckCommandTests {
    @Test func unreachableHostFailsWithExitOne() async throws {
        let command = try CheckCommand.parse(["example.com", "--base-url", "http://127.0.0.1:1", "--timeout", "5"])
        let (output, code) = try await runCapturingAsync { try await command.run(output: $0) }
        #expect(code == 1)
        let text = output.outText
        #expect(
            text.contains(
                "example.com  FAIL  http://example.com:1/.well-known/apple-app-site-association via 127.0.0.1:1"
            )
        )
        #expect(
            text.contains(
                "  FAIL  connect            connection refused (connecting to 127.0.0.1:1): nothing is listening on that port"
            )
        )
        #expect(text.contains("HOST         RESULT  PASS  WARN  FAIL  SKIP"))
    }

    @Test func fromDirChecksEveryServedHostAsJSON() async throws {
        let aasa = #"{"applinks":{"details":[]}}"#
        let scratch = try ScratchDirectory([
            "aasa/example.com/apple-app-site-association": aasa,
            "aasa/www.example.com/apple-app-site-association": aasa,
            "aasa/not-a-host-dir/readme.txt": "",
        ])
        let command = try CheckCommand.parse([
            "--from-dir", scratch.at("aasa"), "--base-url", "http://127.0.0.1:1", "--format", "json", "--concurrency",
            "1",
        ])
        let (output, code) = try await runCapturingAsync { try await command.run(output: $0) }
        #expect(code == 1)
        let json = try JSONParser().parse(output.outText).value
        #expect(
            json["hosts"]?.arrayValue?.compactMap { $0["host"]?.stringValue } == ["example.com", "www.example.com"]
        )
        #expect(json["failed"] == 2)
    }

    @Test(arguments: [
        [String](),
        ["example.com", "--ca-file", "/nonexistent/ca.pem"],
        ["example.com", "--bundle-id", "a", "--app-id", "b"],
        ["ftp://example.com"],
        ["example.com", "--timeout", "0"],
        ["--from-dir", "/nonexistent"],
        ["example.com", "--resolve", "example.com:443"],
        ["example.com", "--resolve", "example.com:443:not-an-ip"],
        ["example.com", "--resolve", "example.com:0:127.0.0.1"],
        ["example.com", "--resolve", "example.org:443:127.0.0.1"],
        ["example.com", "--resolve", "example.com:443:127.0.0.1", "--resolve", "example.com:443:127.0.0.2"],
        ["example.com", "--base-url", "ftp://127.0.0.1"],
        ["example.com", "--base-url", "https://127.0.0.1", "--resolve", "example.com:443:127.0.0.1"],
    ])
    func badInputExitsTwo(arguments: [String]) async throws {
        let command = try CheckCommand.parse(arguments)
        let (output, code) = try await runCapturingAsync { try await command.run(output: $0) }
        #expect(code == 2)
        #expect(output.error.first?.hasPrefix("error: ") == true)
    }

    /// The Content-Type warning (and every other warning) fails the run
    /// with --strict; without it the default stays a warning.
    @Test func strictTurnsWarningsIntoFailures() {
        let reports = [
            HostReport(
                host: "a.io",
                url: "https://a.io/x",
                checks: [.init("connect", .pass, "ok"), .init("http.content-type", .warn, "served as text/plain")]
            )
        ]
        #expect(CheckOutput(reports: reports).exitCode == 0)
        let strict = CheckOutput(reports: reports, strict: true)
        #expect(strict.exitCode == 1)
        #expect(strict.text().hasSuffix("--strict: 1 host with warnings counts as failed"))
        #expect(strict.json().contains(#""failed" : 1"#) || strict.json().contains(#""failed": 1"#))
    }

    @Test func duplicateHostsAreCheckedOnce() async throws {
        let command = try CheckCommand.parse([
            "example.com", "EXAMPLE.com", "https://example.com/", "--base-url", "http://127.0.0.1:1", "--format",
            "json",
        ])
        let (output, _) = try await runCapturingAsync { try await command.run(output: $0) }
        let json = try JSONParser().parse(output.outText).value
        #expect(json["hosts"]?.arrayValue?.count == 1)
        #expect(json["hosts"]?.arrayValue?.first?["connectedTo"] == "127.0.0.1:1")
    }

    @Test func strictFlagParses() throws {
        #expect(try CheckCommand.parse(["example.com", "--strict"]).strict)
        #expect(try !CheckCommand.parse(["example.com"]).strict)
    }

    @Test func summaryTableAlignsColumns() {
        let reports = [
            HostReport(
                host: "example.com",
                url: "https://example.com/x",
                checks: [.init("connect", .pass, "ok"), .init("http.status", .fail, "404")]
            ),
            HostReport(
                host: "a.io",
                url: "https://a.io/x",
                checks: [.init("connect", .pass, "ok"), .init("http.content-type", .warn, "text/html")]
            ),
        ]
        #expect(
            CheckOutput(reports: reports).table() == [
                "HOST         RESULT  PASS  WARN  FAIL  SKIP",
                "example.com  fail       1     0     1     0",
                "a.io         warn       1     1     0     0",
            ]
        )
    }
}

@Suite("concurrentMap")
struct ConcurrentMapTests {
    /// Counts tasks running at once.
    final class Gauge: Sendable {
        private let state = Mutex((running: 0, peak: 0))

        func enter() {
            state.withLock {
                $0.running += 1
                $0.peak = max($0.peak, $0.running)
            }
        }
        func leave() { state.withLock { $0.running -= 1 } }
        var peak: Int { state.withLock { $0.peak } }
    }

    @Test func keepsInputOrderAndTheBound() async {
        let gauge = Gauge()
        var progress: [Int] = []
        let results = await concurrentMap(
            Array(0..<20),
            limit: 3,
            operation: { item in
                gauge.enter()
                await Task.yield()
                gauge.leave()
                return item * 2
            },
            progress: { done, _ in progress.append(done) }
        )
        #expect(results == (0..<20).map { $0 * 2 })
        #expect(gauge.peak <= 3)
        #expect(progress == Array(1...20))
    }
}
