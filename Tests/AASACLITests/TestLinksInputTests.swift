import AASAKit
import ArgumentParser
import Foundation
import Testing

@testable import aasa

/// `aasa test-links` reads its own inputs strictly: a typo in the links file
/// or a wrong app is one usage error (exit 2), never a pass.
@Suite("aasa test-links: bad input")
struct TestLinksInputTests {
    static let shop = TestLinksCommandTests.shop

    func testLinks(_ arguments: [String], links: String) throws -> (RecordedOutput, Int32) {
        let scratch = try ScratchDirectory([
            "aasa/example.com/apple-app-site-association": Self.shop, "links.json": links,
        ])
        let command = try TestLinksCommand.parse(
            arguments.map { $0.replacing("$DIR", with: scratch.path) }
        )
        return try runCapturing { try command.run(output: $0) }
    }

    /// The issue's reproduction: this list used to report "1 passed, 0
    /// failed" and exit 0, having silently dropped the misspelt list.
    @Test func aMisspeltListIsAnErrorNotAShorterList() throws {
        let (output, code) = try testLinks(
            ["--dir", "$DIR/aasa", "--links", "$DIR/links.json", "--bundle-id", "com.example.shop"],
            links: #"""
                {"deep_linkable_url": ["https://example.com/about"],
                 "non_deep_linkable_urls": ["https://example.com/account/1"]}
                """#
        )
        #expect(code == 2)
        #expect(output.out.isEmpty)
        let text = output.error.joined(separator: "\n")
        #expect(text.hasPrefix("error: "))
        #expect(text.contains("links.json: deep_linkable_url: error: unknown key"), "\(text)")
        #expect(text.contains(#"did you mean "deep_linkable_urls"?"#))
    }

    /// `bundleId` used to test the default app instead.
    @Test func aMisspeltAppKeyIsAnError() throws {
        let (output, code) = try testLinks(
            ["--file", "$DIR/aasa/example.com/apple-app-site-association", "--links", "$DIR/links.json"],
            links: #"{"deep_linkable_urls": [{"url": "https://example.com/shop/1", "bundleId": "com.example.other"}]}"#
        )
        #expect(code == 2)
        #expect(output.error.joined().contains(#"deep_linkable_urls[0].bundleId"#))
        #expect(output.error.joined().contains(#"did you mean "bundleID"?"#))
    }

    @Test(arguments: [
        #"{"deep_linkable_urls": []}"#,
        #"{"deep_linkable_urls": [42]}"#,
        #"{"links": [{"url": "https://example.com/shop/1", "expect": "Matched"}]}"#,
        #"{"deep_linkable_urls": ["https://example.com/a"], "deep_linkable_urls": ["https://example.com/b"]}"#,
    ])
    func emptyListsWrongTypesAndDuplicateKeysExitTwo(links: String) throws {
        let (output, code) = try testLinks(
            [
                "--file", "$DIR/aasa/example.com/apple-app-site-association", "--links", "$DIR/links.json",
                "--bundle-id", "com.example.shop",
            ],
            links: links
        )
        #expect(code == 2)
        #expect(output.out.isEmpty)
    }

    /// A bundle ID in none of the files: one error line, not a FAIL per URL.
    @Test func anUnknownBundleIDIsOneUsageError() throws {
        let (output, code) = try testLinks(
            ["--dir", "$DIR/aasa", "--links", "$DIR/links.json", "--bundle-id", "com.example.shpo"],
            links: TestLinksCommandTests.links
        )
        #expect(code == 2)
        #expect(output.out.isEmpty)
        #expect(output.error.count == 1)
        #expect(output.error.first?.contains("bundle ID com.example.shpo is in no file's applinks.details") == true)
        #expect(output.error.first?.contains("did you mean com.example.shop?") == true)
    }

    @Test func aBundleIDGivenAsAnAppIDGetsTheFix() throws {
        let (output, code) = try testLinks(
            ["--dir", "$DIR/aasa", "--links", "$DIR/links.json", "--app-id", "com.example.shop"],
            links: TestLinksCommandTests.links
        )
        #expect(code == 2)
        #expect(output.error.first?.hasSuffix("use --bundle-id com.example.shop") == true, "\(output.error)")
    }

    @Test func anUnknownAppInAnEntryNamesTheEntry() throws {
        let (output, code) = try testLinks(
            ["--dir", "$DIR/aasa", "--links", "$DIR/links.json"],
            links:
                #"{"links": [{"url": "https://example.com/shop/1", "expect": "matched", "appID": "com.example.shop"}]}"#
        )
        #expect(code == 2)
        let text = output.error.joined()
        #expect(text.contains("links.json: links[0]"), "\(text)")
        #expect(text.contains(#"use "bundleID": "com.example.shop""#), "\(text)")
    }

    @Test func theAssociationFileAsTheLinksFileSaysSo() throws {
        let (output, code) = try testLinks(
            [
                "--file", "$DIR/aasa/example.com/apple-app-site-association",
                "--links", "$DIR/aasa/example.com/apple-app-site-association",
            ],
            links: "{}"
        )
        #expect(code == 2)
        #expect(output.error.joined(separator: "\n").contains("[links.association-file]"))
    }

    @Test func theLinksFileAsTheAssociationFileSaysSo() throws {
        let (output, code) = try testLinks(
            ["--file", "$DIR/links.json", "--links", "$DIR/links.json"],
            links: TestLinksCommandTests.links
        )
        #expect(code == 2)
        let text = output.error.joined()
        #expect(text.contains("list no app in applinks.details"), "\(text)")
        #expect(text.contains("looks like a links file"), "\(text)")
    }

    /// `--domain` restricts the run; a list with no URL of that host would
    /// otherwise test nothing and pass.
    @Test func aDomainNoURLIsForIsAUsageError() throws {
        let (output, code) = try testLinks(
            [
                "--file", "$DIR/aasa/example.com/apple-app-site-association", "--domain", "example.org",
                "--links", "$DIR/links.json", "--bundle-id", "com.example.shop",
            ],
            links: TestLinksCommandTests.links
        )
        #expect(code == 2)
        #expect(output.error.first?.contains("no URL of the list is for example.org") == true)
    }

    /// The association file and the links file are read at once, on two
    /// cores; when both are bad, the association file's error is the one
    /// reported, as when they were read one after the other.
    @Test func withBothFilesBadTheAssociationFileIsReported() throws {
        let (output, code) = try testLinks(
            ["--file", "$DIR/aasa/missing/apple-app-site-association", "--links", "$DIR/links.json"],
            links: #"{"deep_linkable_url": ["https://example.com/about"]}"#
        )
        #expect(code == 2)
        #expect(output.out.isEmpty)
        let text = output.error.joined(separator: "\n")
        #expect(text.contains("cannot read the association file"), "\(text)")
        #expect(!text.contains("links file"), "\(text)")
    }
}
