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
                "ABCDE12345.com.example.other: did not match: no rule matched (1 rule tried in applinks.details[1]; none matches the path /buy/42).",
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
        // Scripts rely on this shape: keys are only ever added.
        #expect(json.objectValue?.keys == ["url", "domain", "results"])
        #expect(json["domain"] == "example.com")
        let results = try #require(json["results"]?.arrayValue)
        #expect(
            results.map { $0.objectValue?.keys ?? [] }
                == Array(
                    repeating: ["appID", "decision", "rule", "reason", "opensApp", "why", "explanation"],
                    count: 2
                )
        )
        #expect(results.map { $0["decision"] } == ["matched", "none"])
        #expect(results[0]["rule"]?["path"] == "applinks.details[0].components[1]")
        #expect(results[1]["rule"] == .null)
        #expect(results.map { $0["opensApp"] } == [true, false])
        #expect(results.map { $0["why"] } == [.null, "no-rule-matched"])
        #expect(results[1]["explanation"]?["rulesTried"] == 1)
    }

    @Test func otherHostIsNoneWithTheReason() throws {
        let (output, _) = try match([
            "https://evil.example/buy/1", "--domain", "example.com", "--app-id", "ABCDE12345.com.example.app",
        ])
        let line = try #require(output.out.last)
        #expect(
            line.hasPrefix("ABCDE12345.com.example.app: did not match: URL host evil.example is not example.com"),
            "\(line)"
        )
    }

    /// A typo'd app ID used to print "decision": "none", which a script
    /// checking that a URL does not open the app reads as a pass.
    @Test func anUnlistedAppIsAUsageError() throws {
        let (output, code) = try match([
            "https://example.com/buy/1", "--app-id", "ZZZZZ99999.com.nope", "--format", "json",
        ])
        #expect(code == 2)
        #expect(output.out.isEmpty)
        #expect(output.error.first?.contains("app ID ZZZZZ99999.com.nope is in no file's applinks.details") == true)
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

    // MARK: - Apps

    @Test func bundleIDEvaluatesItsAppIDs() throws {
        let (output, code) = try match(["https://example.com/buy/1", "--bundle-id", "com.example.app"])
        #expect(code == 0)
        #expect(output.out.count == 3)
        #expect(output.out.last?.hasPrefix("ABCDE12345.com.example.app: Pattern") == true)
    }

    @Test(arguments: [
        (["--bundle-id", "com.example.apq"], "did you mean com.example.app?"),
        (["--app-id", "com.example.app"], "use --bundle-id com.example.app"),
        (["--bundle-id", "ABCDE12345.com.example.app"], "use --app-id ABCDE12345.com.example.app"),
        (["--app-id", "ABCDE12345.com.example.web"], "listed under webcredentials only, which opens no link"),
        (["--app-id", "A.b", "--bundle-id", "b"], "give --bundle-id or --app-id, not both"),
    ])
    func aWrongAppIsOneUsageErrorWithTheFix(arguments: [String], fix: String) throws {
        let file =
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"*"}]}]},"webcredentials":{"apps":["ABCDE12345.com.example.web"]}}"#
        let (output, code) = try match(["https://example.com/"] + arguments, file: file)
        #expect(code == 2)
        #expect(output.out.isEmpty)
        #expect(output.error.count == 1)
        #expect(output.error.first?.contains(fix) == true, "\(output.error)")
    }

    // MARK: - Why

    /// The rules match an http URL as swcutil does, but iOS opens no app for it.
    @Test func anHTTPURLNeverOpensTheApp() throws {
        let (output, _) = try match(["http://example.com/buy/1", "--app-id", "ABCDE12345.com.example.app"])
        #expect(output.out.last?.hasSuffix("for this http:// URL the browser opens.") == true, "\(output.out)")
        let (json, _) = try match([
            "http://example.com/buy/1", "--app-id", "ABCDE12345.com.example.app", "--format", "json",
        ])
        let result = try #require(try JSONParser().parse(json.outText).value["results"]?.arrayValue?.first)
        #expect(result["decision"] == "matched")
        #expect(result["opensApp"] == false)
        #expect(result["why"] == "http-scheme")
    }

    @Test func noMatchNamesTheNearestRule() throws {
        let (output, _) = try match(["https://example.com/store/1#other", "--app-id", "ABCDE12345.com.example.app"])
        #expect(
            output.out.last
                == ##"ABCDE12345.com.example.app: did not match: no rule matched (3 rules tried in applinks.details[0]); nearest: applinks.details[0].components[2] {"/":"/$(shop)/*","#":"deal"} (the path matches, the fragment does not)."##
        )
    }

    @Test func blockedAndOtherHostSayWhyInJSON() throws {
        let (blocked, _) = try match(["https://example.com/buy/secret", "--format", "json"])
        #expect(try JSONParser().parse(blocked.outText).value["results"]?.arrayValue?.first?["why"] == "blocked")
        let (other, _) = try match(["https://evil.example/buy/1", "--domain", "example.com", "--format", "json"])
        #expect(try JSONParser().parse(other.outText).value["results"]?.arrayValue?.first?["why"] == "host-mismatch")
    }

    // MARK: - Directories

    @Test func dirPicksTheFileOfTheURLsHost() throws {
        let scratch = try ScratchDirectory([
            "aasa/example.com/apple-app-site-association": Self.file,
            "aasa/*.example.org/apple-app-site-association":
                #"{"applinks":{"details":[{"appIDs":["T.x"],"components":[{"/":"/org/*"}]}]}}"#,
        ])
        let command = try MatchCommand.parse(["https://shop.example.org/org/1", "--dir", scratch.at("aasa")])
        let (output, code) = try runCapturing { try command.run(output: $0) }
        #expect(code == 0)
        #expect(output.out.last?.hasPrefix(#"T.x: Pattern "/org/*" matched."#) == true, "\(output.out)")
        let missing = try MatchCommand.parse(["https://example.net/", "--dir", scratch.at("aasa")])
        let (error, missingCode) = try runCapturing { try missing.run(output: $0) }
        #expect(missingCode == 2)
        #expect(error.error.first?.contains("no file for example.net") == true)
    }

    /// The README's example, run as written on the demo, prints what the
    /// README shows, and says why for every app that does not open.
    @Test func theReadmeExamplePrintsWhatTheReadmeShows() throws {
        let repository = URL(filePath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: repository.appending(path: "README.md"), encoding: .utf8)
        let url = "https://pastaio.example/it/menu/primi?via=app#ingredienti"
        #expect(readme.contains("swift run aasa match '\(url)' --file aasa/pastaio.example/apple-app-site-association"))
        let shown = try #require(readme.split(separator: "```").first { $0.hasPrefix("\nURL: \(url)\n") })
        let command = try MatchCommand.parse([
            url, "--file", repository.appending(path: "aasa/pastaio.example/apple-app-site-association").path,
        ])
        let (output, code) = try runCapturing { try command.run(output: $0) }
        #expect(code == 0)
        #expect(output.out == shown.split(separator: "\n").map(String.init))
        #expect(output.out.filter { $0.contains("did not match") }.allSatisfy { $0.contains("rule tried") })
    }
}
