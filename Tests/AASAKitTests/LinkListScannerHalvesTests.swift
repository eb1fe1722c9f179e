import Testing

@testable import AASAKit

/// A long list's second half is scanned on a thread of its own from a
/// guessed place; wherever that place lies (between elements, inside a
/// string, on a key, past the list) the scan gives what the serial scan
/// gives: the same entries in the same order with the same places, or nil.
@Suite struct LinkListScannerHalvesTests {
    /// What an entry is to a reader of the list: `==` on entries compares
    /// URLs only.
    private struct Seen: Equatable {
        var url: String
        var path: String
        var expectation: LinkExpectations.Expectation
    }

    private static func seen(_ entries: [LinkExpectations.Entry]?) -> [Seen]? {
        entries?.map { Seen(url: $0.url, path: $0.path.description, expectation: $0.expectation) }
    }

    /// Every place of random lists as the second half's start, against
    /// the serial scan.
    @Test func everyPlaceOfASecondHalfGivesTheSerialResult() {
        var random = TestRandom(seed: 0x6861_6C76_6573)
        var taken = 0
        var read = 0
        for _ in 0..<600 {
            let bytes = Self.randomFile(&random)
            let serial = Self.seen(LinkListScanner.entries(of: bytes, file: "links.json", secondHalf: nil))
            if serial != nil { read += 1 }
            for start in 0...bytes.count {
                let split = Self.seen(
                    LinkListScanner.entries(
                        of: bytes,
                        file: "links.json",
                        secondHalf: .init(bytes: bytes, start: start)
                    )
                )
                #expect(split == serial, "second half at \(start) of \(String(decoding: bytes, as: UTF8.self))")
                if serial != nil, bytes.indices.contains(start), bytes[start] == UInt8(ascii: "\"") { taken += 1 }
            }
        }
        // Not vacuous: many files are read, with many places at a quote.
        #expect(read > 60)
        #expect(taken > 600)
    }

    /// A key written again after the second half's start is found as the
    /// serial scan finds it (the half reads the later lists without
    /// knowing the earlier keys).
    @Test(arguments: [
        #"{"deep_linkable_urls": ["a", "b", "c"], "deep_linkable_urls": ["d"]}"#,
        #"{"deep_linkable_urls": ["a", "b"], "non_deep_linkable_urls": ["c", "d"], "deep_linkable_urls": ["e"]}"#,
        #"{"non_deep_linkable_urls": ["a"], "deep_linkable_urls": ["b", "c"], "non_deep_linkable_urls": ["d"]}"#,
    ])
    func aKeyWrittenTwiceAcrossTheHalvesIsLeftToTheFullReader(text: String) {
        let bytes = Array(text.utf8)
        for start in 0...bytes.count {
            #expect(
                LinkListScanner.entries(of: bytes, file: nil, secondHalf: .init(bytes: bytes, start: start)) == nil,
                "at \(start)"
            )
        }
    }

    /// A list long enough to split is split at an element's start past
    /// the scan's progress, and reads as it reads serially.
    @Test func aLongListIsSplitAndReadsAsOne() throws {
        let urls = (0..<40_000).map { "\"https://example.com/a/\($0)/é\"" }
        // The half starts in the first list and reads the second one too.
        let text =
            #"{"deep_linkable_urls": [ "# + urls.joined(separator: ",\n  ")
            + #"],"non_deep_linkable_urls": ["https://example.com/b"]}"#
        let bytes = Array(text.utf8)
        #expect(bytes.count > LinkListScanner.SecondHalf.minimumBytes)
        // Apart: `#require` would print the megabyte it was given.
        let guessed = LinkListScanner.SecondHalf.guess(in: bytes, from: bytes.count / 2)
        let start = try #require(guessed)
        #expect(start >= bytes.count / 2 && start < bytes.count / 2 + 100)
        #expect(Array(bytes[(start - 5)...start]) == Array("\",\n  \"".utf8))
        let serial = Self.seen(LinkListScanner.entries(of: bytes, file: nil, secondHalf: nil))
        for _ in 0..<20 {
            // The place depends on when the thread runs: any is the same.
            #expect(Self.seen(LinkListScanner.entries(of: bytes, file: nil)) == serial)
        }
        let fixed = try #require(
            Self.seen(LinkListScanner.entries(of: bytes, file: nil, secondHalf: .init(bytes: bytes, start: start)))
        )
        #expect(fixed == serial)
        #expect(fixed.count == 40_001)
        #expect(fixed[40_000].path == "non_deep_linkable_urls[0]")
        // The halves of the entries, made on two threads, meet at a run of
        // one source (both are wholly of the first list here).
        let run = LinkListScanner.entriesPerSource
        let middle = 40_001 / 2 / run * run
        let entries = try #require(
            LinkListScanner.entries(of: bytes, file: nil, secondHalf: .init(bytes: bytes, start: start))
        )
        #expect(entries[middle - 1].written.source !== entries[middle].written.source)
        #expect(entries[middle].written.source === entries[middle + run - 1].written.source)
        #expect(entries[middle + run - 1].written.source !== entries[middle + run].written.source)
        #expect(entries[0].written.source === entries[run - 1].written.source)
        #expect(
            fixed[39_999]
                == Seen(url: "https://example.com/a/39999/é", path: "deep_linkable_urls[39999]", expectation: .matched)
        )
    }

    /// No place is guessed inside one long string.
    @Test func noPlaceIsGuessedInsideALongString() {
        let long =
            Array(#"{"deep_linkable_urls": ["a", ""#.utf8)
            + Array(repeating: UInt8(ascii: "x"), count: LinkListScanner.SecondHalf.minimumBytes) + Array(#""]}"#.utf8)
        #expect(LinkListScanner.SecondHalf.guess(in: long, from: long.count / 2) == nil)
    }

    /// Lists of plain strings mostly, with what the scanner leaves to the
    /// full reader now and then: escapes (`\", \"` among them, a string
    /// holding the guessed separator), objects, other values, odd spaces.
    private static func randomFile(_ random: inout TestRandom) -> [UInt8] {
        let pieces = ["a", "/", "é", "€", #"\", \""#, #"\\"#, "\", \"", " ", "\t"]
        let spaces = ["", " ", ",", "\n  ", "\r\n", "\t", "\u{0B}", "\u{A0}"]
        func list() -> String {
            let elements = (0..<(1 + random.below(8))).map { _ -> String in
                switch random.below(30) {
                case 0: return #"{"url": "https://example.com/", "expect": "none"}"#
                case 1: return "null"
                case 2: return "[\"x\"]"
                default:
                    let text = (0..<random.below(6)).map { _ in random.chance(6) ? random.pick(pieces) : "x" }
                    return "\"https://example.com/\(text.joined())\""
                }
            }
            let separators = elements.dropLast().map { _ in
                random.chance(90) ? ", " : random.pick(spaces) + "," + random.pick(spaces)
            }
            return "[" + zip(elements, separators + [""]).map { $0 + $1 }.joined() + "]"
        }
        // Mostly one key or both, once each, in either order; now and then
        // three members, or a key twice.
        let both = ["deep_linkable_urls", "non_deep_linkable_urls"]
        var keys = random.chance(50) ? both : both.reversed()
        if random.chance(50) { keys.removeLast() }
        if random.chance(15) { keys = (0..<(1 + random.below(3))).map { _ in random.pick(both) } }
        let members = keys.map { "\"\($0)\":" + random.pick(spaces) + list() }
        return Array(("{" + members.joined(separator: "," + random.pick(spaces)) + "}").utf8)
    }
}
