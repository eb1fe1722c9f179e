import AASAKit
import ArgumentParser
import Foundation
import Testing

@testable import aasa

/// The links file read while the command line is parsed is the one the
/// run would read itself, and the run gets it only for that path.
@Suite("aasa test-links: the links file read ahead", .serialized)
struct LinksFileAheadTests {
    @Test func theFirstLinksValueOfATestLinksCommandLineIsReadAhead() {
        let cases: [([String], String?)] = [
            (["test-links", "--file", "a", "--links", "l.json", "--links", "m.json"], "l.json"),
            (["test-links", "--links=l.json", "--links", "m.json"], "l.json"),
            (["test-links", "--dir", "d", "--links", "--strict"], "--strict"),
            (["test-links", "--links"], nil),
            (["test-links", "--", "--links", "l.json"], nil),
            (["test-links", "--linksfile", "l.json"], nil),
            (["match", "--links", "l.json"], nil),
            (["validate-universal-links", "--links", "l.json"], nil),
            ([], nil),
        ]
        for (arguments, path) in cases {
            #expect(LinksFileAhead.path(in: arguments) == path, "\(arguments)")
        }
    }

    /// Both shapes the reader takes (the scanner's lists and the objects
    /// of the full path): what was read ahead is what the run reads.
    @Test(arguments: [
        #"{"deep_linkable_urls": ["https://example.com/a", "https://example.com/b"], "non_deep_linkable_urls": ["https://example.com/c"]}"#,
        #"{"links": [{"url": "https://example.com/help", "expect": "blocked", "bundleID": "com.example.app"}]}"#,
    ])
    func whatIsReadAheadIsWhatTheRunReads(links: String) throws {
        let scratch = try ScratchDirectory(["links.json": links])
        let path = scratch.at("links.json")
        let ahead = try #require(LinksFileAhead(arguments: ["test-links", "--links", path]))
        #expect(ahead.take(scratch.at("other.json")) == nil)
        let read = try #require(ahead.take(path)).get()
        let direct = try LinkTestInvocation.linksFile(path)
        #expect(read.entries == direct.entries)
        #expect(read.bytes == direct.bytes)
        #expect(ahead.take(path) == nil, "taken once")
    }

    /// A failure is kept and given to the run: the error its own read
    /// gives, and the file is not read a second time.
    @Test func aFileThatIsNotALinksFileGivesTheRunItsOwnError() throws {
        let scratch = try ScratchDirectory(["links.json": #"{"deep_linkable_urls": []}"#])
        let path = scratch.at("links.json")
        let ahead = try #require(LinksFileAhead(arguments: ["test-links", "--links", path]))
        #expect(!ahead.holdsEntries)
        let kept = try #require(ahead.take(path))
        let direct = Result { () throws(InputError) in try LinkTestInvocation.linksFile(path) }
        guard case .failure(let early) = kept, case .failure(let own) = direct else {
            Issue.record("both reads should fail: \(kept), \(direct)")
            return
        }
        #expect(early.description == own.description)
        #expect(ahead.take(path) == nil, "taken once")
    }

    /// Reading a pipe or a device ahead would take bytes the run reads.
    @Test func onlyARegularFileIsReadAhead() throws {
        let scratch = try ScratchDirectory(["links.json": "{}"])
        for path in [scratch.path, "/dev/null", scratch.at("missing.json")] {
            #expect(LinksFileAhead(arguments: ["test-links", "--links", path]) == nil, "\(path)")
        }
    }

    /// A whole run given the read started for its command line reports
    /// exactly what it reports reading the file itself.
    @Test func aRunTakingTheReadReportsWhatItReportsWithoutIt() throws {
        let scratch = try ScratchDirectory([
            "aasa/example.com/apple-app-site-association": TestLinksCommandTests.shop,
            "links.json": #"""
            {"deep_linkable_urls": ["https://example.com/shop/1", "https://example.com/about"],
             "non_deep_linkable_urls": ["https://example.com/account/1", "https://example.com/shop/1"]}
            """#,
        ])
        let arguments = [
            "test-links", "--dir", scratch.at("aasa"), "--links", scratch.at("links.json"),
            "--bundle-id", "com.example.shop", "--format", "github",
        ]
        let command = try TestLinksCommand.parse(Array(arguments.dropFirst()))
        let (alone, aloneCode) = try runCapturing { try command.run(output: $0) }
        LinksFileAhead.start(arguments: arguments)
        defer { LinksFileAhead.started.withLock { $0 = nil } }
        #expect(LinksFileAhead.started.withLock { $0?.path } == scratch.at("links.json"))
        // The run has the early read to take: a run that read the file
        // itself would pass the comparison below too.
        #expect(LinksFileAhead.started.withLock { $0 }?.holdsEntries == true)
        let (ahead, aheadCode) = try runCapturing { try command.run(output: $0) }
        #expect(LinksFileAhead.take(scratch.at("links.json")) == nil, "the run took it")
        #expect(ahead.out == alone.out && ahead.error == alone.error && aheadCode == aloneCode)
        #expect(!alone.out.isEmpty)
    }
}
