import AASAKit
import ArgumentParser
import Testing

@testable import aasa

/// A host that serves only `assetlinks.json` (an Android-only domain of a
/// brand) used to be invisible to `--dir`: its Android entries failed with
/// `no-file` although its file was right there.
@Suite("aasa: hosts with only assetlinks.json")
struct AndroidOnlyHostTests {
    static let links = #"""
        {"links": [
          {"url": "https://android.example.com/shop/1", "expect": "matched", "platform": "android"},
          {"url": "https://android.example.com/account/1", "expect": "blocked", "platform": "android"},
          {"url": "https://example.com/shop/1", "expect": "matched"},
          {"url": "https://android.example.com/shop/1", "expect": "matched"}
        ]}
        """#

    func scratch() throws -> ScratchDirectory {
        try ScratchDirectory([
            "aasa/example.com/apple-app-site-association": TestLinksCommandTests.shop,
            "aasa/android.example.com/assetlinks.json": AndroidCommandTests.assetLinks,
            "links.json": Self.links,
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

    @Test func androidEntriesAreJudgedAndAnAppleEntrySaysTheHostHasNoAASAFile() throws {
        let scratch = try scratch()
        let (output, code) = try run(
            TestLinksCommand.self,
            ["--dir", "$DIR/aasa", "--links", "$DIR/links.json", "--format", "json"],
            in: scratch
        ) { try $0.run(output: $1) }
        #expect(code == 1, "\(output.outText)")
        let json = try JSONParser().parse(Array(output.outText.utf8)).value
        #expect(json["passed"] == 3, "\(output.outText)")
        let failed = try #require(json["results"]?.arrayValue?.filter { $0["passed"] == false })
        #expect(failed.count == 1, "\(output.outText)")
        #expect(failed.first?["failure"] == "no-file")
        let message = try #require(failed.first?["message"]?.stringValue)
        #expect(message.contains("no apple-app-site-association for android.example.com"), "\(message)")
        #expect(!message.contains("unusable"))
    }

    @Test func matchPackageReadsTheAndroidOnlyHost() throws {
        let scratch = try scratch()
        let (output, code) = try run(
            MatchCommand.self,
            ["https://android.example.com/shop/1", "--dir", "$DIR/aasa", "--package", "com.example.shop"],
            in: scratch
        ) { try $0.run(output: $1) }
        #expect(code == 0, "\(output.error)")
        #expect(output.out.last?.hasPrefix("com.example.shop: Pattern") == true, "\(output.outText)")
    }

    @Test func appleMatchOnTheAndroidOnlyHostIsAUsageErrorThatSaysWhy() throws {
        let scratch = try scratch()
        let (output, code) = try run(
            MatchCommand.self,
            ["https://android.example.com/shop/1", "--dir", "$DIR/aasa"],
            in: scratch
        ) { try $0.run(output: $1) }
        #expect(code == 2)
        #expect(
            output.error.joined().contains("no apple-app-site-association for android.example.com"),
            "\(output.error)"
        )
    }

    /// `aasa match -` over a brand: a URL of the Android-only host is an
    /// error line that says why, the others are decided.
    @Test func matchListSaysTheAndroidOnlyHostHasNoAASAFile() throws {
        let scratch = try scratch()
        let input = "https://example.com/shop/1\nhttps://android.example.com/shop/1\n"
        let command = try MatchCommand.parse(["-", "--dir", scratch.at("aasa")])
        let (output, code) = try runCapturing { try command.run(output: $0, standardInput: { Array(input.utf8) }) }
        #expect(code != 0)
        #expect(output.outText.contains("ABCDE12345.com.example.shop"), "\(output.outText)")
        #expect(
            output.error.contains { $0.contains("no apple-app-site-association for android.example.com") },
            "\(output.error)"
        )
    }
}
