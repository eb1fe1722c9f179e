import AASAKit
import ArgumentParser
import Foundation
import Testing

@testable import aasa

/// `aasa match -`: URLs from standard input, one decision per URL, as
/// `aasa match URL` decides each.
@Suite("aasa match - (a list on standard input)")
struct MatchListTests {
    static let file = MatchCommandTests.file

    func match(
        _ arguments: [String],
        input: String,
        files: [String: String] = ["apple-app-site-association": Self.file]
    ) throws -> (RecordedOutput, Int32) {
        try match(arguments, bytes: Array(input.utf8), files: files)
    }

    func match(
        _ arguments: [String],
        bytes input: [UInt8],
        files: [String: String] = ["apple-app-site-association": Self.file]
    ) throws -> (RecordedOutput, Int32) {
        let scratch = try ScratchDirectory(files)
        let location =
            files.keys.contains("apple-app-site-association")
            ? ["--file", scratch.at("apple-app-site-association")] : ["--dir", scratch.at("aasa")]
        let command = try MatchCommand.parse(["-"] + arguments + location)
        return try runCapturing { try command.run(output: $0, standardInput: { input }) }
    }

    /// One URL alone, through the single-URL path, as JSON.
    func single(_ url: String, _ arguments: [String] = []) throws -> JSONValue {
        let scratch = try ScratchDirectory(["apple-app-site-association": Self.file])
        let command = try MatchCommand.parse(
            [url, "--format", "json"] + arguments + ["--file", scratch.at("apple-app-site-association")]
        )
        let (output, _) = try runCapturing { try command.run(output: $0) }
        return try JSONParser().parse(output.outText).value
    }

    /// The single-URL object as a list prints it: without `explanation`.
    static func listLine(_ alone: JSONValue) -> JSONValue {
        let results = alone["results"]?.arrayValue ?? []
        return [
            "url": alone["url"] ?? .null,
            "domain": alone["domain"] ?? .null,
            "results": .array(
                results.map { result in
                    var object = result.objectValue ?? JSONObject()
                    object["explanation"] = nil
                    return .object(object)
                }
            ),
        ]
    }

    static let urls = [
        "https://example.com/buy/42", "https://example.com/buy/secret", "https://example.com/store/1#deal",
        "https://example.com/café/1", "http://example.com/buy/1", "https://Example.com/nothing",
    ]

    /// Each line is the single-URL object without `explanation`, in input order.
    @Test func jsonLinesAgreeWithOneURLAtATime() throws {
        let (output, code) = try match(["--format", "json"], input: Self.urls.joined(separator: "\n") + "\n")
        #expect(code == 0)
        #expect(output.error.isEmpty)
        let lines = output.outText.split(separator: "\n").map(String.init)
        try #require(lines.count == Self.urls.count)
        for (line, url) in zip(lines, Self.urls) {
            let listed = try JSONParser().parse(line).value
            #expect(listed == Self.listLine(try single(url)), "\(url)")
        }
    }

    /// A list long enough to be rendered in chunks across the cores: every
    /// line in input order, bad lines in place, in both formats, the same
    /// as the short list's lines repeated.
    @Test(arguments: ["json", "text"])
    func aLongListRendersInOrder(format: String) throws {
        let short = Self.urls + ["not a url"]
        let long = (0..<700).flatMap { _ in short }
        let (one, _) = try match(["--format", format], input: short.joined(separator: "\n"))
        let (many, code) = try match(["--format", format], input: long.joined(separator: "\n"))
        #expect(code == 2)
        #expect(many.error.count == 700)
        let separator = format == "json" ? "\n" : "\n\n"
        #expect(many.outText == Array(repeating: one.outText, count: 700).joined(separator: separator))
    }

    /// A long list for one domain: each line is what `aasa match URL
    /// --domain` prints for it alone (without the explanation), whether its
    /// outcome is shared with other lines (a rule over `https` and `http`,
    /// no rule) or its own (another host), in every chunk of the output.
    @Test func aLongListForADomainMatchesOneURLAtATime() throws {
        let short = Self.urls + ["https://other.example/buy/1", "http://example.com/nothing"]
        let long = (0..<600).flatMap { round in round.isMultiple(of: 2) ? short : short.reversed() }
        let (output, code) = try match(
            ["--format", "json", "--domain", "example.com"],
            input: long.joined(separator: "\n")
        )
        #expect(code == 0)
        let lines = output.outText.split(separator: "\n").map(String.init)
        try #require(lines.count == long.count)
        var expected: [String: JSONValue] = [:]
        for url in short {
            expected[url] = Self.listLine(try single(url, ["--domain", "example.com"]))
        }
        for (line, url) in zip(lines, long) {
            #expect(try JSONParser().parse(line).value == expected[url], "\(url)")
        }
    }

    /// Blank lines and surrounding spaces are not URLs; a bad line is
    /// reported in place, the others are still decided, and the run exits 2.
    @Test func aBadLineIsReportedInPlaceAndExitsTwo() throws {
        let input = "  https://example.com/buy/1  \r\n\n\nnot a url\nhttps://example.com/account\n"
        let (output, code) = try match(["--format", "json", "--app-id", "ABCDE12345.com.example.app"], input: input)
        #expect(code == 2)
        let lines = try output.outText.split(separator: "\n").map { try JSONParser().parse(String($0)).value }
        try #require(lines.count == 3)
        #expect(lines[0]["results"]?.arrayValue?.first?["decision"] == "matched")
        #expect(lines[1]["url"] == "not a url")
        #expect(lines[1]["error"]?.stringValue?.hasPrefix("cannot evaluate not a url") == true)
        #expect(lines[2]["results"]?.arrayValue?.first?["decision"] == "none")
        #expect(output.error == ["error: \(lines[1]["error"]?.stringValue ?? "")"])
    }

    /// An empty list is not a list that passed.
    @Test(arguments: ["", "\n  \n"])
    func noURLAtAllExitsTwo(input: String) throws {
        let (output, code) = try match(["--format", "json"], input: input)
        #expect(code == 2)
        #expect(output.out.isEmpty)
        #expect(output.error == ["error: no URL on standard input (one per line)"])
    }

    /// A typo'd app is bad input for every line (never "none" for all).
    @Test func anUnlistedAppFailsEveryLine() throws {
        let (output, code) = try match(
            ["--format", "json", "--app-id", "ZZZZZ99999.com.nope"],
            input: "https://example.com/buy/1\nhttps://example.com/buy/2\n"
        )
        #expect(code == 2)
        let lines = try output.outText.split(separator: "\n").map { try JSONParser().parse(String($0)).value }
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0["results"] == nil && $0["error"]?.stringValue?.contains("ZZZZZ99999") == true })
    }

    /// With --dir each URL uses its own host's file; a host without one is
    /// that line's error.
    @Test func dirDecidesEachURLWithItsHostsFile() throws {
        let files = [
            "aasa/example.com/apple-app-site-association": Self.file,
            "aasa/example.org/apple-app-site-association":
                #"{"applinks":{"details":[{"appIDs":["T.x"],"components":[{"/":"/org/*"}]}]}}"#,
        ]
        let input = "https://example.org/org/1\nhttps://example.com/buy/1\nhttps://example.net/x\n"
        let (output, code) = try match(["--format", "json"], input: input, files: files)
        #expect(code == 2)
        let lines = try output.outText.split(separator: "\n").map { try JSONParser().parse(String($0)).value }
        try #require(lines.count == 3)
        #expect(lines[0]["results"]?.arrayValue?.map { $0["appID"] } == ["T.x"])
        #expect(lines[0]["results"]?.arrayValue?.first?["decision"] == "matched")
        #expect(lines[1]["results"]?.arrayValue?.first?["decision"] == "matched")
        #expect(lines[2]["error"]?.stringValue?.contains("no file for example.net") == true)
    }

    /// Text: each URL's block as `aasa match URL` prints it, a blank line between.
    @Test func textPrintsEachBlockAsTheSingleURLDoes() throws {
        let urls = ["https://example.com/buy/42", "https://example.com/buy/secret"]
        let app = ["--app-id", "ABCDE12345.com.example.app"]
        let (output, code) = try match(app, input: urls.joined(separator: "\n"))
        #expect(code == 0)
        var blocks: [String] = []
        for url in urls {
            let scratch = try ScratchDirectory(["apple-app-site-association": Self.file])
            let command = try MatchCommand.parse([url] + app + ["--file", scratch.at("apple-app-site-association")])
            let (single, _) = try runCapturing { try command.run(output: $0) }
            blocks.append(single.outText)
        }
        #expect(output.outText == blocks.joined(separator: "\n\n"))
    }

    /// CRLF line ends, blank and whitespace-only lines: the same report as
    /// the plain list, in a list long enough to be parsed across the cores.
    @Test func crlfAndBlankLinesGiveTheSameReport() throws {
        let long = (0..<800).flatMap { _ in Self.urls }
        let (plain, plainCode) = try match(["--format", "json"], input: long.joined(separator: "\n"))
        let messy = long.map { " \t\($0)\t \r\n  \r\n\n" }.joined()
        let (crlf, code) = try match(["--format", "json"], input: messy)
        #expect(plainCode == 0 && code == 0)
        #expect(crlf.outText.split(separator: "\n").count == long.count)
        #expect(crlf.outText == plain.outText)
    }

    /// A line that is not UTF-8 prints `{"url", "error"}` in its place and
    /// exits 2; it is never decided as a URL with U+FFFD in it.
    @Test func invalidUTF8IsAnErrorLineInPlace() throws {
        let bytes =
            Array("https://example.com/buy/1\n".utf8) + Array("https://example.com/buy/".utf8) + [0xFF]
            + Array("\nhttps://example.com/buy/2\n".utf8)
        let (output, code) = try match(["--format", "json"], bytes: bytes)
        #expect(code == 2)
        let lines = try output.outText.split(separator: "\n").map { try JSONParser().parse(String($0)).value }
        try #require(lines.count == 3)
        #expect(lines[0]["results"] != nil && lines[2]["results"] != nil)
        #expect(lines[1]["results"] == nil)
        #expect(lines[1]["error"] == "standard input, line 2: not UTF-8 text (byte 0xFF at offset 24)")
        #expect(output.error == ["error: standard input, line 2: not UTF-8 text (byte 0xFF at offset 24)"])
    }

    /// Standard input that cannot be read is bad input: exit 2, nothing decided.
    @Test func unreadableStandardInputExitsTwo() throws {
        let scratch = try ScratchDirectory(["apple-app-site-association": Self.file])
        let command = try MatchCommand.parse(["-", "--file", scratch.at("apple-app-site-association")])
        let (output, code) = try runCapturing { output in
            try command.run(output: output) { () throws(InputError) -> [UInt8] in
                throw InputError("cannot read standard input: Input/output error")
            }
        }
        #expect(code == 2)
        #expect(output.out.isEmpty)
        #expect(output.error == ["error: cannot read standard input: Input/output error"])
    }
}
