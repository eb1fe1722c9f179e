import Testing

@testable import AASAKit

/// Entries read by the scanner keep their URL as the links file's bytes and
/// their place as a list and an index; the run parses the URLs from those
/// bytes, each chunk reusing the string of a host it has just seen. All of
/// it must be what the same entries give as strings and paths.
@Suite struct LinkEntryBytesTests {
    private static let hosts = [
        "example.com", "EXAMPLE.com", "www.example.com", "example.co", "example.com.", "broken.example.com",
        "elsewhere.example", "user:pw@example.com", "example.com:443", "example.com:8443", "ÉXAMPLE.com",
        "例え.jp", "",
    ]
    private static let paths = [
        "/shop/%d", "/account/%d", "/en/menu/%d", "/help/%d?q=x", "/x/%d#promo", "/a/../shop/%d", "/%2e%2E/shop/%d",
        "/caf\u{E9}/%d", "/shop/%25zz%d", "/Straße/%d?ü=1#ß", "", "/sh op/%d", "/shop/%d.json",
    ]

    /// A links file of the common shape: both lists, URLs drawn so that
    /// hosts change and repeat, some written twice, with CRLF and spaces.
    private static func file(count: Int, random: inout TestRandom) -> (bytes: [UInt8], urls: Int) {
        var lists: [[String]] = [[], []]
        var written: [String] = []
        for index in 0..<count {
            var url: String
            if !written.isEmpty, random.chance(8) {
                url = random.pick(written)
            } else {
                let host = random.chance(80) ? hosts[random.below(3)] : random.pick(hosts)
                let path = random.pick(paths).replacing("%d", with: "\(index % 97)")
                url = "\(random.chance(10) ? "http" : random.pick(["https", "HTTPS"]))://\(host)\(path)"
                if random.chance(2) { url = "not a URL \(index)" }
                if random.chance(2) { url = " \(url) " }
            }
            written.append(url)
            lists[random.below(2)].append(url)
        }
        let members = zip(["deep_linkable_urls", "non_deep_linkable_urls"], lists).compactMap { key, urls in
            urls.isEmpty ? nil : "\"\(key)\": [\r\n    \(urls.map { "\"\($0)\"" }.joined(separator: ",\r\n    "))\r\n]"
        }
        return (Array("{\r\n\(members.joined(separator: ",\r\n"))\r\n}\r\n".utf8), count)
    }

    @Test(arguments: [1, 2, 3])
    func entriesKeptAsBytesRunAsTheirStrings(seed: UInt64) throws {
        var random = TestRandom(seed: 0xB17E_5000 + seed)
        let (bytes, count) = Self.file(count: ParallelBatch.minimumChunk * 3 + 17, random: &random)
        let fromBytes = try LinkExpectations(bytes: bytes, file: "links.json")
        #expect(fromBytes.entries.count == count)
        // The scanner read the file: every URL is a span of its bytes.
        #expect(fromBytes.entries.allSatisfy { if case .bytes = $0.written { true } else { false } })
        let asStrings = LinkExpectations(
            entries: fromBytes.entries.map {
                LinkExpectations.Entry(url: $0.url, expectation: $0.expectation, path: $0.path, file: $0.file)
            }
        )
        #expect(asStrings.entries.allSatisfy { if case .string = $0.written { true } else { false } })
        #expect(asStrings.entries == fromBytes.entries)
        #expect(asStrings.entries.map(\.hashValue) == fromBytes.entries.map(\.hashValue))
        // And the same as the full reader's entries.
        #expect(try LinkExpectations(parsing: bytes, file: "links.json").entries == fromBytes.entries)

        let runner = LinkTestRunner(sites: LinkTestRecordsDifferentialTests.sites)
        let app = LinkTestRecordsDifferentialTests.app
        let fast = try runner.run(fromBytes, app: app)
        let reference = try runner.run(asStrings, app: app)
        #expect(fast.warnings == reference.warnings)
        #expect(fast.warnings.contains { $0.code == "links.duplicate-url" })
        #expect(try fast.results.map { try $0.json } == reference.results.map { try $0.json })
        let rules = LinkTestRuleTable(fast)
        #expect(
            fast.resultLines(level: 2, rules: rules).joined().elementsEqual(
                reference.resultLines(level: 2, rules: LinkTestRuleTable(reference)).joined()
            )
        )
        #expect(fast.textLines(appColumn: true).joined().elementsEqual(reference.textLines(appColumn: true).joined()))
    }

    /// One chunk's URLs parsed in turn from bytes, sharing the host string
    /// of the URL before when it is the same host, are each what
    /// ``AASAURL/init(_:)`` makes of the string alone.
    @Test func parsingWithTheHostOfTheURLBeforeIsParsingAlone() {
        var random = TestRandom(seed: 0x4057_CAC4E)
        var host: String?
        var shared = 0
        for index in 0..<5_000 {
            var text = "\(random.pick(["https", "http", "Https", "ftp"]))://\(random.pick(Self.hosts))"
            text += random.pick(Self.paths).replacing("%d", with: "\(index)")
            if random.chance(3) { text = "\t" + text + "\n" }
            let before = host
            let bytes = Array(text.utf8)
            let parsed = bytes.withUnsafeBufferPointer { buffer in
                Result { () throws(AASAURLError) in try URLByteParser.parse(buffer, original: { text }, host: &host) }
            }
            let alone = Result { () throws(AASAURLError) in try AASAURL(text) }
            #expect(parsed == alone, "\(text)")
            if case .success(let url) = parsed, let before, url.host == before { shared += 1 }
        }
        // Not vacuous: hosts were taken from the URL before.
        #expect(shared > 500)
    }

    /// `é` and `e` + U+0301 are two URLs to the matcher and to the
    /// duplicate check: two entries too, whether kept as the file's bytes
    /// or as strings (their `==` compared the strings canonically).
    @Test func entriesDifferingOnlyInNormalisationAreTwo() throws {
        let (composed, decomposed) = ("https://example.com/caf\u{E9}", "https://example.com/cafe\u{301}")
        let bytes = Array(#"{"deep_linkable_urls": ["\#(composed)", "\#(decomposed)"]}"#.utf8)
        let fromBytes = try LinkExpectations(bytes: bytes, file: nil).entries
        let asStrings = [composed, decomposed].enumerated().map { index, url in
            LinkExpectations.Entry(
                url: url,
                expectation: .matched,
                path: JSONPath([.key("deep_linkable_urls"), .index(index)])
            )
        }
        #expect(fromBytes == asStrings)
        #expect(fromBytes.map(\.hashValue) == asStrings.map(\.hashValue))
        var moved = asStrings[1]
        moved.path = asStrings[0].path
        #expect(moved != asStrings[0])
        #expect(Set([asStrings[0], moved, fromBytes[0]]).count == 2)
    }
}
