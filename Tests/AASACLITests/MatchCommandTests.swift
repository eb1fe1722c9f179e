import AASAKit
import ArgumentParser
import Foundation
import Testing

@testable import aasa

@Suite("aasa match")
struct MatchCommandTests {
    static let file = #"""
        {"applinks":{
          "substitutionVariables":{"shop":["shop","store"]},
          "details":[
            {"appIDs":["ABCDE12345.com.example.app"],"components":[
              {"/":"/buy/secret","exclude":true},
              {"/":"/buy/*"},
              {"/":"/$(shop)/*","#":"deal"}]},
            {"appIDs":["ABCDE12345.com.example.other"],"components":[{"/":"/café/*","percentEncoded":false}]}
          ]}}
        """#

    func match(_ arguments: [String], file: String = Self.file) throws -> (RecordedOutput, Int32) {
        let scratch = try ScratchDirectory(["apple-app-site-association": file])
        let command = try MatchCommand.parse(arguments + ["--file", scratch.at("apple-app-site-association")])
        return try runCapturing { try command.run(output: $0) }
    }

    @Test func textReadsLikeSwcutil() throws {
        let (output, code) = try match(["https://example.com/buy/42"])
        #expect(code == 0)
        #expect(
            output.out == [
                "URL: https://example.com/buy/42",
                "Domain: example.com",
                #"ABCDE12345.com.example.app: Pattern "/buy/*" matched. (rule 1, applinks.details[0].components[1])"#,
                "ABCDE12345.com.example.other: did not match (no rule matched).",
            ]
        )
    }

    @Test func blockedMatchNamesTheExclusion() throws {
        let (output, _) = try match(["https://example.com/buy/secret", "--app-id", "ABCDE12345.com.example.app"])
        #expect(
            output.out.last
                == #"ABCDE12345.com.example.app: Pattern {"/":"/buy/secret","exclude":true} blocked match. (rule 0, applinks.details[0].components[0])"#
        )
    }

    @Test func variablesAreNamed() throws {
        let (output, _) = try match(["https://example.com/store/1#deal", "--app-id", "ABCDE12345.com.example.app"])
        let line = try #require(output.out.last)
        #expect(line.hasSuffix("(rule 2, applinks.details[0].components[2], variables $(shop))"), "\(line)")
    }

    @Test func humanTypedURLsAreEncodedFirst() throws {
        let (output, _) = try match([
            "https://example.com/café/1", "--app-id", "ABCDE12345.com.example.other", "--format", "json",
        ])
        let json = try JSONParser().parse(output.outText).value
        #expect(json["url"] == "https://example.com/caf%C3%A9/1")
        #expect(json["results"]?.arrayValue?.first?["decision"] == "matched")
    }

    @Test func jsonHasTheDocumentedShape() throws {
        let (output, code) = try match(["https://Example.com/buy/1", "--format", "json"])
        #expect(code == 0)
        let json = try JSONParser().parse(output.outText).value
        #expect(json.objectValue?.keys == ["url", "domain", "results"])
        #expect(json["domain"] == "example.com")
        let results = try #require(json["results"]?.arrayValue)
        #expect(
            results.map { $0.objectValue?.keys ?? [] }
                == Array(repeating: ["appID", "decision", "rule", "reason"], count: 2)
        )
        #expect(results.map { $0["decision"] } == ["matched", "none"])
        #expect(results[0]["rule"]?["path"] == "applinks.details[0].components[1]")
        #expect(results[1]["rule"] == .null)
    }

    @Test func otherHostIsNoneWithTheReason() throws {
        let (output, _) = try match([
            "https://evil.example/buy/1", "--domain", "example.com", "--app-id", "ABCDE12345.com.example.app",
        ])
        let line = try #require(output.out.last)
        #expect(
            line.hasPrefix("ABCDE12345.com.example.app: did not match (URL host evil.example is not example.com"),
            "\(line)"
        )
    }

    @Test func unlistedAppIsNone() throws {
        let (output, _) = try match([
            "https://example.com/buy/1", "--app-id", "ZZZZZ99999.com.nope", "--format", "json",
        ])
        let json = try JSONParser().parse(output.outText).value
        #expect(json["results"]?.arrayValue?.first?["decision"] == "none")
    }

    @Test(arguments: [
        ("https://example.com/x", "{ not json", "is not JSON"),
        ("https://example.com/x", "[1]", "not an association file"),
        ("ftp://example.com/x", file, "cannot evaluate ftp://example.com/x"),
        ("not a url", file, "cannot evaluate not a url"),
    ])
    func badInputExitsTwo(_ url: String, _ contents: String, _ message: String) throws {
        let (output, code) = try match([url], file: contents)
        #expect(code == 2)
        #expect(output.out.isEmpty)
        #expect(output.error.first?.contains(message) == true, "\(output.error)")
    }

    @Test func missingFileExitsTwo() throws {
        let command = try MatchCommand.parse([
            "https://example.com/", "--file", "/nonexistent/apple-app-site-association",
        ])
        let (output, code) = try runCapturing { try command.run(output: $0) }
        #expect(code == 2)
        #expect(output.error.first?.contains("/nonexistent/apple-app-site-association") == true)
    }

    @Test func fileWithoutAppsSaysSo() throws {
        let (output, code) = try match(["https://example.com/"], file: #"{"webcredentials":{"apps":[]}}"#)
        #expect(code == 0)
        #expect(output.out.last == "The file lists no app IDs under applinks.details.")
    }
}
