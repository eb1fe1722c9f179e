import AASAKit
import ArgumentParser
import Foundation
import Testing

@testable import aasa

#if canImport(FoundationXML)
import FoundationXML
#endif

/// One run for a whole brand: each URL against its own host's file, one
/// report, one JUnit file; `--strict` and `--coverage`.
@Suite("aasa test-links: brands")
struct TestLinksBrandTests {
    static let shop = TestLinksCommandTests.shop
    static let recipes =
        #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.shop"],"components":[{"/":"/recipes/*"}]}]}}"#

    static let brandLinks = #"""
        {
          "deep_linkable_urls": [
            "https://example.com/shop/1",
            "https://www.example.com/recipes/pasta"
          ],
          "non_deep_linkable_urls": [
            "https://www.example.com/shop/1",
            "https://example.com/account/orders"
          ]
        }
        """#

    func testLinks(
        _ arguments: [String],
        links: String = Self.brandLinks,
        extra: [String: String] = [:]
    ) throws -> (RecordedOutput, Int32) {
        var files = [
            "aasa/example.com/apple-app-site-association": Self.shop,
            "aasa/www.example.com/apple-app-site-association": Self.recipes,
            "links.json": links,
        ]
        files.merge(extra) { $1 }
        let scratch = try ScratchDirectory(files)
        let command = try TestLinksCommand.parse(arguments.map { $0.replacing("$DIR", with: scratch.path) })
        return try runCapturing { try command.run(output: $0) }
    }

    func lastLine(_ output: RecordedOutput) -> String {
        output.outText.split(separator: "\n").last.map(String.init) ?? ""
    }

    static let brand = ["--dir", "$DIR/aasa", "--links", "$DIR/links.json", "--bundle-id", "com.example.shop"]

    @Test func oneRunTestsEveryHostAgainstItsOwnFile() throws {
        let (output, code) = try testLinks(Self.brand)
        #expect(code == 0, "\(output.outText)")
        #expect(lastLine(output) == "4 passed, 0 failed")
    }

    @Test func aURLWhoseHostHasNoFileFails() throws {
        let links = #"{"non_deep_linkable_urls": ["https://shop.example.org/x", "https://example.com/account/1"]}"#
        let (output, code) = try testLinks(Self.brand, links: links)
        #expect(code == 1)
        #expect(
            output.outText.contains(
                "FAIL  https://shop.example.org/x: no file: no association file serves shop.example.org"
            )
        )
    }

    @Test func aDomainRestrictsTheRunAndWarns() throws {
        let (output, code) = try testLinks(Self.brand + ["--domain", "www.example.com"])
        #expect(code == 0)
        #expect(lastLine(output) == "2 passed, 0 failed, 2 skipped; 1 warning")
        #expect(output.outText.contains("[links.other-host]"))
        let (_, strictCode) = try testLinks(Self.brand + ["--domain", "www.example.com", "--strict"])
        #expect(strictCode == 1)
    }

    @Test func anOversizedFileFailsItsURLs() throws {
        let huge =
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.shop"],"components":[{"/":"*"}]}]},"pad":""#
            + String(repeating: "x", count: 140_000) + #""}"#
        let (output, code) = try testLinks(
            Self.brand,
            extra: ["aasa/www.example.com/apple-app-site-association": huge]
        )
        #expect(code == 1)
        #expect(output.outText.contains("FAIL  https://www.example.com/recipes/pasta: file unusable:"))
        #expect(output.outText.contains("uses none of a larger file"))
    }

    @Test func anHTTPURLExpectedToOpenTheAppFails() throws {
        let (output, code) = try testLinks(Self.brand, links: #"{"deep_linkable_urls": ["http://example.com/shop/1"]}"#)
        #expect(code == 1)
        #expect(
            output.outText.contains(
                "FAIL  http://example.com/shop/1: http scheme: iOS opens apps for https:// links only"
            )
        )
    }

    @Test func warningsPassUnlessStrict() throws {
        let links = #"{"deep_linkable_urls": ["https://example.com/shop/1", "https://example.com/shop/1"]}"#
        let (output, code) = try testLinks(Self.brand, links: links)
        #expect(code == 0)
        #expect(lastLine(output) == "2 passed, 0 failed; 1 warning")
        #expect(
            output.outText.contains(
                "links.json: deep_linkable_urls[1]: warning: https://example.com/shop/1 is already listed"
            )
        )
        let (strictOutput, strictCode) = try testLinks(Self.brand + ["--strict"], links: links)
        #expect(strictCode == 1)
        #expect(lastLine(strictOutput) == "2 passed, 0 failed; 1 warning (--strict: warnings fail the run)")
    }

    @Test func coverageListsRulesNoURLDecides() throws {
        let links = #"{"deep_linkable_urls": ["https://example.com/shop/1", "https://www.example.com/recipes/1"]}"#
        let (output, code) = try testLinks(Self.brand + ["--coverage"], links: links)
        #expect(code == 0)
        #expect(
            output.outText.contains(
                #"aasa/example.com/apple-app-site-association: applinks.details[0].components[0]: warning: no URL of the links list is decided by this exclusion"#
            ),
            "\(output.outText)"
        )
        let (_, strictCode) = try testLinks(Self.brand + ["--coverage", "--strict"], links: links)
        #expect(strictCode == 1)
        let (covered, coveredCode) = try testLinks(Self.brand + ["--coverage", "--strict"])
        #expect(coveredCode == 0)
        #expect(covered.outText.contains("coverage: every rule of the tested apps decides at least one URL"))
    }

    @Test func junitHasOneSuitePerHostAndStrictWarningsAsFailures() throws {
        let links =
            #"{"deep_linkable_urls": ["https://example.com/shop/1", "https://example.com/shop/1", "https://www.example.com/recipes/1"]}"#
        let (output, code) = try testLinks(Self.brand + ["--format", "junit", "--strict"], links: links)
        #expect(code == 1)
        let document = try XMLDocument(xmlString: output.outText)
        let suites = try document.nodes(forXPath: "//testsuite/@name").compactMap(\.stringValue)
        #expect(
            suites == ["aasa test-links example.com", "aasa test-links www.example.com", "aasa test-links warnings"]
        )
        #expect(output.outText.contains(#"<testsuites name="aasa test-links" tests="4" failures="1" errors="0">"#))
        #expect(try document.nodes(forXPath: "//failure[@type='links.duplicate-url']").count == 1)
        let (lenient, _) = try testLinks(Self.brand + ["--format", "junit"], links: links)
        #expect(lenient.outText.contains(#"tests="4" failures="0" errors="0""#))
        #expect(lenient.outText.contains("<skipped message=\"warning: "))
    }

    @Test func githubAnnotatesWarningsAsErrorsWhenStrict() throws {
        let links = #"{"non_deep_linkable_urls": ["http://example.com/shop/1"]}"#
        let (output, _) = try testLinks(Self.brand + ["--format", "github"], links: links)
        #expect(output.out.first?.hasPrefix("::warning file=") == true)
        #expect(output.out.first?.contains(",line=1,title=links.http-url::") == true, "\(output.out)")
        let (strict, code) = try testLinks(Self.brand + ["--format", "github", "--strict"], links: links)
        #expect(code == 1)
        #expect(strict.out.first?.hasPrefix("::error file=") == true)
    }

    @Test func jsonCarriesWarningsAndEveryLinksFile() throws {
        let (output, code) = try testLinks(
            Self.brand + ["--links", "$DIR/links.json", "--format", "json", "--coverage"]
        )
        #expect(code == 0)
        let json = try JSONParser().parse(output.outText).value
        // The same file named twice is read once.
        #expect(json["links"]?.arrayValue?.count == 1)
        #expect(json["passed"] == 4)
        #expect(json["warnings"]?.arrayValue?.isEmpty == true)
        #expect(json["uncoveredRules"]?.arrayValue?.isEmpty == true)
        #expect(json["succeeded"] == true)
        #expect(json["results"]?.arrayValue?.first?["site"] == "example.com")
        // Each deciding rule once, in "rules"; a result names it by index.
        let rules = try #require(json["rules"]?.arrayValue)
        let results = try #require(json["results"]?.arrayValue)
        let named = results.compactMap { $0["rule"]?.numberValue.map(Int.init) }
        #expect(!named.isEmpty && named.allSatisfy(rules.indices.contains))
        #expect(Set(named).count == rules.count)
        #expect(rules.allSatisfy { $0["site"]?.stringValue != nil && $0["path"]?.stringValue != nil })
    }

    /// The demo brand, every host's list in one strict run, as `.ci/run` does it.
    @Test func theDemoBrandPassesStrictlyInOneRun() throws {
        let repository = URL(filePath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let demo = repository.appending(path: "aasa").path
        let hosts = try FileManager.default.contentsOfDirectory(atPath: demo).sorted()
            .filter { FileManager.default.fileExists(atPath: "\(demo)/\($0)/links.json") }
        #expect(hosts.count >= 4)
        let command = try TestLinksCommand.parse(
            ["--dir", demo, "--bundle-id", "com.pastaio.app", "--package", "com.pastaio.app", "--strict", "--coverage"]
                + hosts.flatMap { ["--links", "\(demo)/\($0)/links.json"] }
        )
        let (output, code) = try runCapturing { try command.run(output: $0) }
        #expect(code == 0, "\(output.outText)")
        #expect(lastLine(output).hasSuffix(" passed, 0 failed"))
    }
}
