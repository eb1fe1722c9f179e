import Testing

@testable import AASAKit

/// The links-file scanner against the full reader (parser, schema,
/// entries): on random and mutated files it either returns exactly the
/// entries the full reader returns, or defers to it. It never accepts a
/// file the full reader rejects.
@Suite struct LinkListScannerTests {
    private enum Verdict: Equatable {
        case entries([LinkExpectations.Entry])
        case rejected
    }

    private func reference(_ bytes: [UInt8]) -> Verdict {
        do {
            return .entries(try LinkExpectations(parsing: bytes, file: "links.json").entries)
        } catch {
            return .rejected
        }
    }

    /// Returns whether the scanner read the file itself.
    @discardableResult
    private func check(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let fast = LinkListScanner.entries(of: bytes, file: "links.json") else { return false }
        let slow = reference(bytes)
        #expect(
            slow == .entries(fast),
            "scanner and full reader differ on \(String(decoding: bytes, as: UTF8.self))",
            sourceLocation: sourceLocation
        )
        return true
    }

    @Test func theCommonShapeIsReadByTheScannerAsTheFullReaderReadsIt() throws {
        let text = """
            {"non_deep_linkable_urls": ["https://example.com/account", "https://example.com/fr#cartes-épargne"],
             "deep_linkable_urls" : [ "https://example.com/menu/42" ]}\r\n
            """
        #expect(check(Array(text.utf8)))
        let entries = try #require(LinkListScanner.entries(of: Array(text.utf8), file: "links.json"))
        // Listed as the full reader lists them: deep-linkable URLs first.
        #expect(entries.map(\.url).first == "https://example.com/menu/42")
        #expect(
            entries.map(\.path.description) == [
                "deep_linkable_urls[0]", "non_deep_linkable_urls[0]", "non_deep_linkable_urls[1]",
            ]
        )
        #expect(entries.map(\.expectation) == [.matched, .notMatched, .notMatched])
    }

    /// A list longer than one source's run of entries (each run shares a
    /// source of its own) reads as the full reader reads it, every entry
    /// with its own URL and the file's name, across both lists.
    @Test func aListOfManySourcesReadsAsOne() throws {
        let run = LinkListScanner.entriesPerSource
        let deep = (0..<(2 * run + 7)).map { "\"https://example.com/d/\($0)\"" }
        let blocked = (0..<(run + 1)).map { "\"https://example.com/b/\($0)\"" }
        let text =
            #"{"non_deep_linkable_urls": ["# + blocked.joined(separator: ",") + #"], "deep_linkable_urls": ["#
            + deep.joined(separator: ",") + "]}"
        #expect(check(Array(text.utf8)))
        let entries = try #require(LinkListScanner.entries(of: Array(text.utf8), file: "links.json"))
        #expect(entries.count == 3 * run + 8)
        #expect(entries[run].url == "https://example.com/d/\(run)")
        #expect(entries[2 * run + 7].url == "https://example.com/b/0")
        #expect(entries.allSatisfy { $0.file == "links.json" })
        // A source per run of entries, not one for the list.
        #expect(entries[0].written.source !== entries[run].written.source)
        #expect(entries[0].written.source === entries[run - 1].written.source)
    }

    /// Each of these is a file the full reader either rejects or reads in
    /// its own way; the scanner must leave every one of them to it.
    @Test(arguments: [
        #"{}"#,
        #"{"deep_linkable_urls": []}"#,
        #"{"deep_linkable_urls": [""]}"#,
        #"{"deep_linkable_urls": ["a"], "deep_linkable_urls": ["b"]}"#,
        #"{"deep_linkable_url": ["https://example.com/"]}"#,
        #"{"deep_linkable_urls": ["https:\/\/example.com\/"]}"#,
        #"{"deep_linkable_urls": [{"url": "https://example.com/"}]}"#,
        #"{"deep_linkable_urls": ["https://example.com/",]}"#,
        #"{"deep_linkable_urls": ["https://example.com/"],}"#,
        #"{"deep_linkable_urls": ["https://example.com/"]} x"#,
        #"{"deep_linkable_urls": "https://example.com/"}"#,
        #"{"links": [{"url": "https://example.com/", "expect": "none"}]}"#,
        #"{"$schema": "x", "deep_linkable_urls": ["https://example.com/"]}"#,
        "\u{FEFF}{\"deep_linkable_urls\": [\"https://example.com/\"]}",
        "{\"deep_linkable_urls\": [\"https://example.com/\t\"]}",
        #"["https://example.com/"]"#,
    ])
    func deviationsAreLeftToTheFullReader(text: String) {
        #expect(LinkListScanner.entries(of: Array(text.utf8), file: "links.json") == nil)
    }

    @Test func invalidUTF8IsLeftToTheFullReader() {
        let bytes = Array(#"{"deep_linkable_urls": ["https://example.com/"#.utf8) + [0xC3, 0x28] + Array(#""]}"#.utf8)
        #expect(LinkListScanner.entries(of: bytes, file: nil) == nil)
        #expect(reference(bytes) == .rejected)
    }

    /// Random files from pieces that are often right and sometimes wrong,
    /// and byte mutations of files the scanner accepts.
    @Test func randomAndMutatedFilesAgreeWithTheFullReader() {
        var random = TestRandom(seed: 0x6C69_6E6B_7332)
        var scanned = 0
        var mutatedScanned = 0
        for _ in 0..<3_000 {
            let bytes = Array(Self.randomFile(&random).utf8)
            guard check(bytes) else { continue }
            scanned += 1
            for _ in 0..<4 {
                if check(Self.mutate(bytes, &random)) { mutatedScanned += 1 }
            }
        }
        // Not vacuous: both kinds of input reach the comparison.
        #expect(scanned > 300)
        #expect(mutatedScanned > 100)
    }

    /// The scan reads eight bytes at a time: an escape, a control character,
    /// a non-ASCII character or a byte that is not UTF-8 at each place in a
    /// word (and across two words) is found as a byte loop finds it.
    @Test func eachByteOfAWordIsLookedAt() {
        let valid: [[UInt8]] = [Array("é".utf8), Array("€".utf8), Array("😀".utf8), [0x7F], [0x20]]
        let refused: [[UInt8]] = [
            Array(#"\""#.utf8), Array(#"\\"#.utf8), [0x09], [0x01], [0x1F], [0x0A], [0xFF], [0xC3],
        ]
        var scanned = 0
        for offset in 0..<24 {
            for tail in [0, 1, 7, 8, 9] {
                for (piece, accepted) in valid.map({ ($0, true) }) + refused.map({ ($0, false) }) {
                    let url =
                        Array("https://example.com/".utf8) + Array(repeating: UInt8(ascii: "a"), count: offset)
                        + piece + Array(repeating: UInt8(ascii: "b"), count: tail)
                    let bytes = Array(#"{"deep_linkable_urls": [""#.utf8) + url + Array(#""]}"#.utf8)
                    if check(bytes) { scanned += 1 }
                    let entries = LinkListScanner.entries(of: bytes, file: nil)
                    #expect((entries != nil) == accepted, "offset \(offset), tail \(tail), piece \(piece)")
                    if let entries {
                        #expect(entries.map(\.url) == [String(decoding: url, as: UTF8.self)])
                    }
                }
            }
        }
        #expect(scanned == 24 * 5 * valid.count)
    }

    /// A word's first stop is found from its flags: on random words over
    /// the bytes that matter, the lowest flag is the first byte a byte loop
    /// stops at, and there is none when the loop finds none.
    @Test func theLowestFlagIsTheFirstStop() {
        var random = TestRandom(seed: 0x7374_6F70)
        let alphabet: [UInt8] = [
            0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF,
        ]
        for _ in 0..<20_000 {
            let bytes = (0..<8).map { _ in random.pick(alphabet) }
            let word = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) }
            let first = bytes.firstIndex { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }
            let stops = LinkListScanner.stops(word)
            #expect((stops == 0 ? nil : stops.trailingZeroBitCount / 8) == first, "\(bytes)")
        }
    }

    /// Many short strings to a word: a string's closing quote, the next
    /// one's opening quote and its bytes share the word the stop is found
    /// in, and what is not ASCII is checked for the string it is in only.
    @Test func shortStringsSharingWordsAgreeWithTheFullReader() {
        var random = TestRandom(seed: 0x7368_6F72)
        let pieces: [[UInt8]] = [
            [UInt8(ascii: "a")], [UInt8(ascii: "/")], Array("é".utf8), [0xFF], [0xC3], [0x09], Array(#"\""#.utf8),
        ]
        var scanned = 0
        for _ in 0..<2_000 {
            let strings = (0..<(1 + random.below(12))).map { _ in
                (0..<(1 + random.below(9))).flatMap { _ in random.chance(5) ? random.pick(pieces) : [UInt8(ascii: "x")]
                }
            }
            let list = strings.map { [UInt8(ascii: "\"")] + $0 + [UInt8(ascii: "\"")] }.joined(separator: [
                UInt8(ascii: ",")
            ])
            let bytes = Array(#"{"deep_linkable_urls":["#.utf8) + list + Array("]}".utf8)
            if check(bytes) { scanned += 1 }
            // Deferring is only for what the scanner cannot take.
            let plain = strings.allSatisfy { string in
                !string.contains { $0 == UInt8(ascii: "\\") || $0 < 0x20 } && UTF8Text.decode(string[...]) != nil
            }
            #expect((LinkListScanner.entries(of: bytes, file: nil) != nil) == plain, "\(strings)")
        }
        #expect(scanned > 300)
    }

    /// Mostly what the scanner accepts, so that many files reach the
    /// comparison; the rest is what it must leave to the full reader.
    private static let keys =
        Array(repeating: "deep_linkable_urls", count: 6) + Array(repeating: "non_deep_linkable_urls", count: 6)
        + ["links", "$schema", "deep_linkable_url", "Deep_linkable_urls"]
    private static let urls =
        Array(repeating: "https://example.com/a", count: 12) + [
            "https://example.com/fr#cartes-épargne", "http://x/?q=1", "https://例え.jp/パス", "a b", "", "a",
            #"https:\/\/example.com\/"#, #"\u00e9"#, #"quote\"d"#, "tab\there",
        ]
    private static let spaces = ["", " ", "\n", "\r\n  ", "\t"]

    private static func randomFile(_ random: inout TestRandom) -> String {
        var members: [String] = []
        for _ in 0..<(1 + random.below(3)) {
            let key = random.pick(keys)
            members.append("\"\(key)\"\(random.pick(spaces)):\(random.pick(spaces))\(value(&random))")
        }
        let separator = random.chance(95) ? "," : ""
        var text = "\(random.pick(spaces)){\(members.joined(separator: separator + random.pick(spaces)))}"
        if random.chance(5) { text += random.pick(["x", ",", "}", "\u{FEFF}"]) }
        return text + random.pick(spaces)
    }

    private static func value(_ random: inout TestRandom) -> String {
        switch random.below(40) {
        case 0: return "[]"
        case 1: return #""https://example.com/""#
        case 2: return #"[{"url": "https://example.com/", "expect": "none"}]"#
        case 3: return "1"
        default:
            let elements = (0..<(1 + random.below(4))).map { _ in
                random.chance(2) ? "null" : "\"\(random.pick(urls))\""
            }
            let trailing = random.chance(2) ? "," : ""
            return "[\(elements.joined(separator: "," + random.pick(spaces)))\(trailing)]"
        }
    }

    private static func mutate(_ bytes: [UInt8], _ random: inout TestRandom) -> [UInt8] {
        var bytes = bytes
        let position = random.below(bytes.count)
        let alphabet: [UInt8] = Array(#"{}[]",:\ xé"#.utf8) + [0x00, 0x0A, 0xFF, 0xC3]
        switch random.below(3) {
        case 0: bytes.remove(at: position)
        case 1: bytes.insert(random.pick(alphabet), at: position)
        default: bytes[position] = random.pick(alphabet)
        }
        return bytes
    }
}

/// A result's `entry` is written without building the path's description
/// for the usual `list[index]`; it must read back as that description.
@Suite struct EntryPathWritingTests {
    @Test(arguments: [
        JSONPath.root.appending("deep_linkable_urls").appending(3),
        JSONPath.root.appending("non_deep_linkable_urls").appending(12_345),
        JSONPath.root.appending("links").appending(0),
        JSONPath.root.appending("a b").appending(1),
        JSONPath.root.appending("links"),
        JSONPath.root,
    ])
    func entryPathsReadBackAsTheirDescription(path: JSONPath) throws {
        var writer = JSONTextWriter()
        writer.entryPlace(LinkEntryPlace(path))
        #expect(try JSONParser().parse(writer.bytes).value == .string(path.description))
    }
}
