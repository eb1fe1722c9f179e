import AASAKit
import ArgumentParser
import Foundation
import Testing

@testable import aasa

/// The Android half of the command line: `match --package`, Android entries
/// in `test-links`, and `validate`'s credential-sharing check across a
/// host's two files.
@Suite("aasa: Android commands")
struct AndroidCommandTests {
    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    /// `/account/*` blocked, `/shop/*` opens com.example.shop; the app may
    /// use the site's saved credentials.
    static let assetLinks = #"""
        [{"relation":["delegate_permission/common.handle_all_urls","delegate_permission/common.get_login_creds"],
          "target":{"namespace":"android_app","package_name":"com.example.shop",
                    "sha256_cert_fingerprints":["\#(fingerprint)"]},
          "relation_extensions":{"delegate_permission/common.handle_all_urls":{"dynamic_app_link_components":[
            {"/":"/account/*","exclude":true},{"/":"/shop/*","comments":"the shop"}]}}}]
        """#

    static let links = #"""
        {
          "deep_linkable_urls": ["https://example.com/shop/1"],
          "non_deep_linkable_urls": ["https://example.com/account/1"],
          "links": [
            {"url": "https://example.com/shop/1", "expect": "matched", "platform": "android"},
            {"url": "https://example.com/account/1", "expect": "blocked", "platform": "android"},
            {"url": "https://example.com/about", "expect": "none", "platform": "android", "package": "com.example.shop"}
          ]
        }
        """#

    func scratch(assetLinks: String = Self.assetLinks, links: String = Self.links) throws -> ScratchDirectory {
        try ScratchDirectory([
            "aasa/example.com/apple-app-site-association": TestLinksCommandTests.shop,
            "aasa/example.com/assetlinks.json": assetLinks,
            "links.json": links,
        ])
    }

    func run<Command: ParsableCommand>(
        _ type: Command.Type,
        _ arguments: [String],
        in scratch: ScratchDirectory,
        _ body: (Command, CommandOutput) throws -> Void
    ) throws -> (RecordedOutput, Int32) {
        let command = try Command.parse(arguments.map { $0.replacing("$DIR", with: scratch.path) })
        return try runCapturing { try body(command, $0) }
    }

    func match(_ arguments: [String], in scratch: ScratchDirectory) throws -> (RecordedOutput, Int32) {
        try run(MatchCommand.self, arguments, in: scratch) { try $0.run(output: $1) }
    }

    @Test func matchPackageNamesTheDecidingRule() throws {
        let scratch = try scratch()
        let (output, code) = try match(
            ["https://example.com/account/7", "--dir", "$DIR/aasa", "--package", "com.example.shop"],
            in: scratch
        )
        #expect(code == 0)
        #expect(
            output.out.last
                == #"com.example.shop: Pattern {"/":"/account/*","exclude":true} blocked match. (rule 0, [0].relation_extensions["delegate_permission/common.handle_all_urls"].dynamic_app_link_components[0])"#,
            "\(output.outText)"
        )
        let (none, _) = try match(
            [
                "https://example.com/about", "--file", "$DIR/aasa/example.com/assetlinks.json", "--package",
                "com.example.shop",
            ],
            in: scratch
        )
        #expect(none.out.last == "com.example.shop: did not match: no rule matched.")
    }

    @Test func matchPackageJSONSaysWhy() throws {
        let scratch = try scratch()
        let (output, code) = try match(
            ["https://example.com/shop/1", "--dir", "$DIR/aasa", "--package", "com.example.shop", "--format", "json"],
            in: scratch
        )
        #expect(code == 0)
        let json = try JSONParser().parse(Array(output.outText.utf8)).value
        #expect(json["platform"] == "android")
        #expect(json["results"]?.arrayValue?.first?["opensApp"] == true)
        #expect(json["results"]?.arrayValue?.first?["decision"] == "matched")
        #expect(json["results"]?.arrayValue?.first?["rule"]?["index"] == 1)
    }

    @Test func matchPackageReportsTheIntentFilterFallback() throws {
        let malformed = Self.assetLinks.replacing(#""exclude":true"#, with: #""exlude":true"#)
        let scratch = try scratch(assetLinks: malformed)
        let (output, code) = try match(
            [
                "https://example.com/account/7", "--dir", "$DIR/aasa", "--package", "com.example.shop", "--format",
                "json",
            ],
            in: scratch
        )
        #expect(code == 0)
        let json = try JSONParser().parse(Array(output.outText.utf8)).value
        #expect(json["results"]?.arrayValue?.first?["why"] == "intent-filters")
        #expect(json["results"]?.arrayValue?.first?["opensApp"] == false)
        #expect(
            json["results"]?.arrayValue?.first?["reason"]?.stringValue?.contains(
                "falls back to the app's intent filters"
            ) == true
        )
    }

    @Test func anUngrantedPackageIsAUsageErrorWithDidYouMean() throws {
        let scratch = try scratch()
        let (output, code) = try match(
            ["https://example.com/shop/1", "--dir", "$DIR/aasa", "--package", "com.example.shp"],
            in: scratch
        )
        #expect(code == 2)
        #expect(output.error.first?.contains("did you mean com.example.shop?") == true)
        let (both, bothCode) = try match(
            [
                "https://example.com/shop/1", "--dir", "$DIR/aasa", "--package", "com.example.shop", "--bundle-id",
                "x.y",
            ],
            in: scratch
        )
        #expect(bothCode == 2)
        #expect(both.error.first?.contains("not both") == true)
    }

    func testLinks(_ extra: [String], in scratch: ScratchDirectory) throws -> (RecordedOutput, Int32) {
        let arguments = ["--dir", "$DIR/aasa", "--links", "$DIR/links.json"] + extra
        return try run(TestLinksCommand.self, arguments, in: scratch) { try $0.run(output: $1) }
    }

    @Test func testLinksRunsAppleAndAndroidEntriesTogether() throws {
        let scratch = try scratch()
        let (output, code) = try testLinks(["--strict", "--coverage"], in: scratch)
        #expect(code == 0, "\(output.outText)")
        #expect(output.outText.hasSuffix("5 passed, 0 failed"), "\(output.outText)")
        #expect(output.outText.contains("[com.example.shop]"))
    }

    @Test func anAndroidEntryTheRulesContradictFails() throws {
        let links = #"{"links":[{"url":"https://example.com/account/1","expect":"matched","platform":"android"}]}"#
        let scratch = try scratch(links: links)
        let (output, code) = try testLinks(["--package", "com.example.shop"], in: scratch)
        #expect(code == 1)
        #expect(output.outText.contains("excluded by [0].relation_extensions"))
    }

    @Test func anUnknownPackageFlagIsAUsageError() throws {
        let scratch = try scratch()
        let (output, code) = try testLinks(["--package", "com.example.shp"], in: scratch)
        #expect(code == 2)
        #expect(output.error.joined().contains("did you mean com.example.shop?"))
    }

    @Test func validateWarnsWhenOnlyOnePlatformSharesCredentials() throws {
        // The AASA file has no webcredentials; the assetlinks.json grants get_login_creds.
        let scratch = try scratch()
        let (output, code) = try run(ValidateCommand.self, ["$DIR/aasa", "--strict"], in: scratch) {
            try $0.run(output: $1)
        }
        #expect(code == 1)
        #expect(output.outText.contains("assetlinks.webcredentials-missing"), "\(output.outText)")
        let (lenient, lenientCode) = try run(ValidateCommand.self, ["$DIR/aasa"], in: scratch) {
            try $0.run(output: $1)
        }
        #expect(lenientCode == 0, "\(lenient.outText)")
    }
}
