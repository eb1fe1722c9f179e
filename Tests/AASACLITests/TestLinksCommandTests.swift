import AASAKit
import ArgumentParser
import Foundation
import Testing

@testable import aasa

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("aasa test-links")
struct TestLinksCommandTests {
    /// The seed's example, shared with AASAKitTests.
    static let lieferando = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "AASAKitTests/Fixtures/lieferando").path

    static let shop = #"""
        {"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.shop"],"components":[
          {"/":"/account/*","exclude":true},{"/":"/shop/*"}]}]}}
        """#

    /// One of each failure kind, and one pass.
    static let links = #"""
        {
          "deep_linkable_urls": [
            "https://example.com/shop/1",
            "https://example.com/about",
            "https://example.com/account/orders"
          ],
          "non_deep_linkable_urls": [
            "https://example.com/shop/basket"
          ]
        }
        """#

    func testLinks(_ arguments: [String], links: String = Self.links) throws -> (RecordedOutput, Int32) {
        let scratch = try ScratchDirectory([
            "aasa/example.com/apple-app-site-association": Self.shop, "links.json": links,
        ])
        let command = try TestLinksCommand.parse(
            arguments.map { $0.replacing("$DIR", with: scratch.path) }
        )
        return try runCapturing { try command.run(output: $0) }
    }

    @Test func seedExamplePasses() throws {
        let command = try TestLinksCommand.parse([
            "--file", Self.lieferando + "/apple-app-site-association", "--links", Self.lieferando + "/links.json",
            "--bundle-id", "com.lieferando.app", "--domain", "lieferando.de",
        ])
        let (output, code) = try runCapturing { try command.run(output: $0) }
        #expect(code == 0)
        #expect(output.out.last?.hasSuffix("12 passed, 0 failed") == true)
        #expect(
            output.outText.contains(
                "PASS  https://lieferando.de/fr#cartes-épargne: matched by applinks.details[0].components[4]"
            )
        )
    }

    @Test func failuresAreNamedAndExitOne() throws {
        let (output, code) = try testLinks([
            "--dir", "$DIR/aasa", "--domain", "example.com", "--links", "$DIR/links.json", "--bundle-id",
            "com.example.shop",
        ])
        #expect(code == 1)
        let text = output.outText
        #expect(text.contains("PASS  https://example.com/shop/1: matched by applinks.details[0].components[1]"))
        #expect(
            text.contains(
                "FAIL  https://example.com/about: unhandled: no rule matched (2 rules tried in applinks.details[0]; none matches the path /about) (expected matched)"
            )
        )
        #expect(
            text.contains(
                #"FAIL  https://example.com/account/orders: excluded by applinks.details[0].components[0] {"/":"/account/*","exclude":true}"#
            )
        )
        #expect(
            text.contains(
                "FAIL  https://example.com/shop/basket: incorrectly handled: matched by applinks.details[0].components[1]"
            )
        )
        #expect(text.hasSuffix("1 passed, 3 failed"))
    }

    /// A list long enough to be rendered in chunks across the cores: one
    /// line per URL, in list order, then the summary.
    @Test func aLongListPrintsEveryURLInOrder() throws {
        let urls = (0..<5_000).map { $0 % 2 == 0 ? "https://example.com/shop/\($0)" : "https://example.com/x/\($0)" }
        let links = #"{"deep_linkable_urls": [\#(urls.map { "\"\($0)\"" }.joined(separator: ","))]}"#
        let (output, code) = try testLinks(
            ["--dir", "$DIR/aasa", "--links", "$DIR/links.json", "--bundle-id", "com.example.shop"],
            links: links
        )
        #expect(code == 1)
        let lines = output.outText.split(separator: "\n")
        let verdicts = lines.filter { $0.hasPrefix("PASS") || $0.hasPrefix("FAIL") }
        #expect(verdicts.count == 5_000)
        #expect(zip(verdicts, urls).allSatisfy { $0.0.dropFirst(6).hasPrefix($0.1 + ":") })
        #expect(zip(verdicts, urls.indices).allSatisfy { $0.0.hasPrefix($0.1 % 2 == 0 ? "PASS" : "FAIL") })
        #expect(lines.last == "2500 passed, 2500 failed")
    }

    @Test func junitReport() throws {
        let (output, code) = try testLinks([
            "--file", "$DIR/aasa/example.com/apple-app-site-association", "--links", "$DIR/links.json",
            "--app-id", "ABCDE12345.com.example.shop", "--format", "junit",
        ])
        #expect(code == 1)
        let xml = output.outText
        #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(xml.contains(#"<testsuites name="aasa test-links" tests="4" failures="3" errors="0">"#))
        #expect(
            xml.contains(
                #"<failure type="excluded" message="excluded by applinks.details[0].components[0] {&quot;/&quot;:&quot;/account/*&quot;,&quot;exclude&quot;:true} (expected matched)">"#
            )
        )
        #expect(xml.contains(#"<failure type="incorrectly-handled""#))
        let document = try XMLDocument(xmlString: xml)
        #expect(try document.nodes(forXPath: "//testcase").count == 4)
    }

    @Test func githubAnnotationsPointAtTheLine() throws {
        let (output, code) = try testLinks([
            "--file", "$DIR/aasa/example.com/apple-app-site-association", "--links", "$DIR/links.json",
            "--bundle-id", "com.example.shop", "--format", "github",
        ])
        #expect(code == 1)
        let annotations = output.outText.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        #expect(annotations.count == 3)
        let about = try #require(annotations.first)
        #expect(about.contains(",line=4,title=unhandled%3A https%3A//example.com/about::unhandled: no rule matched"))
        #expect(output.out.last?.hasSuffix("1 passed, 3 failed") == true)
    }

    @Test func jsonReport() throws {
        let (output, code) = try testLinks([
            "--file", "$DIR/aasa/example.com/apple-app-site-association", "--links", "$DIR/links.json",
            "--bundle-id", "com.example.shop", "--format", "json",
        ])
        #expect(code == 1)
        let json = try JSONParser().parse(output.outText).value
        #expect(json["passed"] == 1)
        #expect(json["failed"] == 3)
        let kinds = json["results"]?.arrayValue?.map { $0["failure"]?.stringValue ?? "pass" }
        #expect(kinds == ["pass", "unhandled", "excluded", "incorrectly-handled"])
    }

    @Test func unparsableURLIsAFailureNotACrash() throws {
        let (output, code) = try testLinks(
            [
                "--file", "$DIR/aasa/example.com/apple-app-site-association", "--links", "$DIR/links.json",
                "--bundle-id", "com.example.shop",
            ],
            links: #"{"deep_linkable_urls": ["https://exa mple.com/shop/1"]}"#
        )
        #expect(code == 1)
        #expect(output.outText.contains("FAIL  https://exa mple.com/shop/1: invalid URL"))
    }

    @Test(arguments: [
        ["--links", "$DIR/links.json"],
        ["--file", "$DIR/aasa/example.com/apple-app-site-association"],
        ["--dir", "$DIR/aasa", "--domain", "example.org", "--links", "$DIR/links.json"],
        ["--file", "$DIR/missing", "--links", "$DIR/links.json"],
        ["--file", "$DIR/links.json", "--dir", "$DIR/aasa", "--links", "$DIR/links.json"],
        [
            "--file", "$DIR/aasa/example.com/apple-app-site-association", "--links",
            "$DIR/aasa/example.com/apple-app-site-association",
        ],
        [
            "--file", "$DIR/aasa/example.com/apple-app-site-association", "--links", "$DIR/links.json", "--bundle-id",
            "a", "--app-id", "b",
        ],
    ])
    func badInputExitsTwo(arguments: [String]) throws {
        let (output, code) = try testLinks(arguments)
        #expect(code == 2)
        #expect(output.error.first?.hasPrefix("error: ") == true)
        #expect(output.out.isEmpty)
    }

    @Test func seedCommandLineBehavesTheSame() throws {
        let modern = try TestLinksCommand.parse([
            "--file", Self.lieferando + "/apple-app-site-association", "--links", Self.lieferando + "/links.json",
            "--bundle-id", "com.lieferando.app", "--domain", "lieferando.de", "--format", "junit",
        ])
        let seed = try ValidateUniversalLinksCommand.parse([
            "--bundle-id", "com.lieferando.app", "--domain", "lieferando.de",
            "--aasa-path", Self.lieferando + "/apple-app-site-association", "--universal-links-path",
            Self.lieferando + "/links.json",
            "--format", "junit",
        ])
        let (modernOutput, modernCode) = try runCapturing { try modern.run(output: $0) }
        let (seedOutput, seedCode) = try runCapturing { try seed.run(output: $0) }
        #expect(modernCode == 0)
        #expect(seedCode == modernCode)
        #expect(seedOutput.outText == modernOutput.outText)
    }

    @Test func seedSchemaCommandIsValidateWithSchema() throws {
        let scratch = try ScratchDirectory([
            "apple-app-site-association": Self.shop,
            "strict.schema.json": #"{"type":"object","required":["webcredentials"]}"#,
        ])
        let seed = try ValidateSchemaCommand.parse([
            "--aasa-path", scratch.at("apple-app-site-association"), "--json-schema-path",
            scratch.at("strict.schema.json"),
        ])
        let modern = try ValidateCommand.parse([
            scratch.at("apple-app-site-association"), "--schema", scratch.at("strict.schema.json"),
        ])
        let (seedOutput, seedCode) = try runCapturing { try seed.run(output: $0) }
        let (modernOutput, modernCode) = try runCapturing { try modern.run(output: $0) }
        #expect(seedCode == 1)
        #expect(seedCode == modernCode)
        #expect(seedOutput.outText == modernOutput.outText)
        #expect(seedOutput.outText.contains("webcredentials"))
    }
}
