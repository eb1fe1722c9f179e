import AASAKit
import ArgumentParser
import Foundation
import Testing

@testable import aasa

/// `aasa validate --strict`, `--format github` and `--format sarif`.
@Suite("aasa validate: --strict and CI formats")
struct ValidateFormatTests {
    /// Valid, but with a key the system ignores: one warning, no error.
    static let warningOnly = """
        {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a/*"}]}]},
         "webcredential": {"apps": []}}
        """

    func validate(_ arguments: [String]) throws -> (RecordedOutput, Int32) {
        let command = try ValidateCommand.parse(arguments)
        return try runCapturing { try command.run(output: $0) }
    }

    @Test func warningsPassByDefaultAndFailUnderStrict() throws {
        let scratch = try ScratchDirectory(["h/apple-app-site-association": Self.warningOnly])
        let (lenient, lenientCode) = try validate([scratch.path])
        #expect(lenientCode == 0)
        #expect(lenient.out.last == "1 file, 0 errors, 1 warning")
        let (strict, strictCode) = try validate([scratch.path, "--strict"])
        #expect(strictCode == 1)
        #expect(strict.out.last == "1 file, 0 errors, 1 warning (--strict: warnings fail)")
        for format in ["json", "github", "sarif"] {
            #expect(try validate([scratch.path, "--strict", "--format", format]).1 == 1, "\(format)")
        }
    }

    @Test func strictPassesAFileWithoutWarnings() throws {
        let scratch = try ScratchDirectory(["h/apple-app-site-association": ValidateCommandTests.valid])
        let (output, code) = try validate([scratch.path, "--strict"])
        #expect(code == 0)
        #expect(output.out == ["1 file, 0 errors, 0 warnings"])
    }

    @Test func githubFormatAnnotatesTheLineAndColumn() throws {
        let scratch = try ScratchDirectory(["h/apple-app-site-association": ValidateCommandTests.broken])
        let file = scratch.at("h/apple-app-site-association")
        let (output, code) = try validate([scratch.path, "--format", "github"])
        #expect(code == 1)
        let escapedFile = GitHubAnnotations.escapeProperty(file)
        #expect(
            output.out.contains(
                "::error file=\(escapedFile),line=2,col=82,title=schema.type::"
                    + "applinks.details[0].components[2].exclude: expected boolean, got string"
            )
        )
        #expect(
            output.out.contains {
                $0.hasPrefix("::warning file=\(escapedFile),line=3,col=18,title=lint.unknown-service::")
            }
        )
        #expect(output.out.last == "1 file, 2 errors, 2 warnings")
    }

    @Test(arguments: [
        (Severity.error, "::error file=a%2Cb%3Ac%25.json,line=1,col=2,title=x.y::p: 100%25 broken%0Anext%0Dline"),
        (Severity.warning, "::warning file=a%2Cb%3Ac%25.json,line=1,col=2,title=x.y::p: 100%25 broken%0Anext%0Dline"),
        (Severity.info, "::notice file=a%2Cb%3Ac%25.json,line=1,col=2,title=x.y::p: 100%25 broken%0Anext%0Dline"),
    ])
    func githubCommandsAreEscaped(_ severity: Severity, _ expected: String) {
        let diagnostic = Diagnostic(
            severity,
            code: "x.y",
            path: JSONPath([.key("p")]),
            message: "100% broken\nnext\rline",
            file: "a,b:c%.json",
            position: SourcePosition(line: 1, column: 2, offset: 1)
        )
        #expect(GitHubAnnotations.command(diagnostic) == expected)
    }

    @Test func githubCommandWithoutPositionAnnotatesTheFile() {
        let diagnostic = Diagnostic(.error, code: "file.too-large", path: .root, message: "m", file: "f")
        #expect(GitHubAnnotations.command(diagnostic) == "::error file=f,title=file.too-large::(root): m")
    }

    @Test func sarifNamesTheToolRulesAndLocations() throws {
        let scratch = try ScratchDirectory(["h/apple-app-site-association": ValidateCommandTests.broken])
        let (output, code) = try validate([scratch.path, "--format", "sarif"])
        #expect(code == 1)
        let log = try JSONParser().parse(output.outText).value
        #expect(log["version"] == "2.1.0")
        let run = try #require(log["runs"]?.arrayValue?.first)
        #expect(run["tool"]?["driver"]?["name"] == "aasa")
        #expect(run["columnKind"] == "unicodeCodePoints")
        #expect(run["invocations"]?.arrayValue?.first?["executionSuccessful"] == true)
        let rules = try #require(run["tool"]?["driver"]?["rules"]?.arrayValue)
        let results = try #require(run["results"]?.arrayValue)
        #expect(results.count == 4)
        // Every result names a rule by its code and index; every rule is used.
        for result in results {
            let index = try #require(result["ruleIndex"]?.numberValue.map(Int.init))
            #expect(rules[index]["id"] == result["ruleId"])
        }
        #expect(Set(rules.compactMap { $0["id"] }) == Set(results.compactMap { $0["ruleId"] }))
        let typeError = try #require(results.first { $0["ruleId"] == "schema.type" })
        #expect(typeError["level"] == "error")
        let location = try #require(typeError["locations"]?.arrayValue?.first?["physicalLocation"])
        #expect(location["region"] == ["startLine": 2, "startColumn": 82])
        let uri = try #require(location["artifactLocation"]?["uri"]?.stringValue)
        #expect(URL(string: uri)?.path == scratch.at("h/apple-app-site-association"))
        #expect(results.contains { $0["level"] == "warning" })
    }

    @Test func sarifReportsUnreadablePathsAsAFailedRun() throws {
        let scratch = try ScratchDirectory(["h/apple-app-site-association": ValidateCommandTests.valid])
        let (output, code) = try validate([scratch.at("missing"), scratch.path, "--format", "sarif"])
        #expect(code == 2)
        let run = try #require(try JSONParser().parse(output.outText).value["runs"]?.arrayValue?.first)
        let invocation = try #require(run["invocations"]?.arrayValue?.first)
        #expect(invocation["executionSuccessful"] == false)
        let notification = try #require(invocation["toolExecutionNotifications"]?.arrayValue?.first)
        #expect(notification["message"]?["text"]?.stringValue?.contains("no such file or directory") == true)
    }

    @Test(arguments: [
        ("aasa/example.com/apple-app-site-association", "aasa/example.com/apple-app-site-association"),
        ("./aasa/my host/x", "aasa/my%20host/x"),
        ("a:b/c#d%", "a%3Ab/c%23d%25"),
    ])
    func sarifKeepsRelativePathsRelativeToTheCheckout(_ path: String, _ uri: String) {
        #expect(SARIFLog.artifactLocation(path) == ["uri": .string(uri), "uriBaseId": "%SRCROOT%"])
    }

    @Test func sarifRuleTitlesComeFromTheCode() {
        #expect(SARIFLog.ruleTitle("lint.unreachable-rule") == "Lint: unreachable rule")
        #expect(SARIFLog.ruleTitle("schema.additionalProperties") == "JSON Schema: additionalProperties")
        #expect(SARIFLog.ruleTitle("assetlinks.fingerprint") == "Digital Asset Links: fingerprint")
    }
}
