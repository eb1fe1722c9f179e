import Testing

@testable import AASAKit

/// Random rule sets and URLs: the matcher (rule index, glob and literal
/// programs, reused buffers, batch API) against ``MatcherReference``, and
/// the byte-level URL parser against ``ReferenceURL``. Seeded, so a
/// failure reproduces; the failing file and URL are printed.
@Suite struct MatcherDifferentialTests {
    static let appID = MatcherFixture.appID

    @Test(arguments: 0..<8)
    func fastPathAgreesWithReference(seed: UInt64) throws {
        var random = TestRandom(seed: 0xD1FF_0000 + seed)
        for _ in 0..<60 {
            let text = RandomRules.file(&random)
            let file = try MatcherFixture.parse(text)
            let matcher = AASAMatcher(file: file)
            let reference = MatcherReference(file: file)
            let urls = try (0..<25).map { _ in try AASAURL(RandomRules.url(&random)) }
            let batch = matcher.evaluate(urls, appID: Self.appID)
            for (url, fromBatch) in zip(urls, batch) {
                let result = matcher.evaluate(url, appID: Self.appID)
                let fast = MatcherReference.Outcome(
                    decision: result.decision,
                    rule: result.rule.map { [$0.detailIndex, $0.ruleIndex] },
                    notes: result.notes
                )
                let expected = reference.evaluate(url, appID: Self.appID)
                #expect(fast == expected, "\(url) against \(text)")
                #expect(fromBatch.reason == result.reason && fromBatch.notes == result.notes, "\(url)")
            }
        }
    }

    /// The batch API splits a long list across threads; every result lands
    /// at its own URL's position.
    @Test func batchAcrossThreadsKeepsOrder() throws {
        var random = TestRandom(seed: 0xBA7C)
        let file = try MatcherFixture.parse(RandomRules.file(&random))
        let matcher = AASAMatcher(file: file)
        let urls = try (0..<5_000).map { _ in try AASAURL(RandomRules.url(&random)) }
        let requests = urls.enumerated().map { MatchRequest(url: $1, appID: $0 % 7 == 0 ? "OTHER.app" : Self.appID) }
        let batch = matcher.evaluate(requests)
        #expect(batch.count == urls.count)
        for (request, result) in zip(requests, batch) {
            let one = matcher.evaluate(request.url, appID: request.appID)
            #expect(result.decision == one.decision && result.reason == one.reason, "\(request.url)")
        }
    }

    /// Parsing a list across threads: each result at its string's
    /// position, errors included.
    @Test func parsingAListAcrossThreadsKeepsOrder() {
        var random = TestRandom(seed: 0x9A25)
        let strings = (0..<6_000).map { index in
            index % 11 == 0 ? "ftp://h/\(index)" : RandomRules.url(&random) + "/\(index)"
        }
        let parsed = AASAURL.parse(strings)
        let serial = AASAURL.parse(strings, parallel: false)
        #expect(parsed.count == strings.count)
        for (index, string) in strings.enumerated() {
            let one = Result { () throws(AASAURLError) in try AASAURL(string) }
            #expect(parsed[index] == one && serial[index] == one, "\(string)")
        }
    }

    @Test(arguments: 0..<4)
    func urlParserAgreesWithReference(seed: UInt64) {
        var random = TestRandom(seed: 0x0E1_0000 + seed)
        let pieces = [
            "http", "https", "HTTPS", "ftp", ":", "//", "/", "\\", "?", "#", "@", "[", "]", "::1", ":8080", ":443",
            ":80", ":99999", ":x", "h", "Example.COM", "é", "É", "%", "%2e", "%2E", ".", "..", "a b", "\t", "\n", " ",
            "\u{7F}", "\u{01}", "\"", "<", ">", "`", "{", "}", "^", "'", "|", "+", "=", "&", "ß", "ǅ", "日本",
            // The one-string layout's marks: escapes of `/`, `?` and `#`,
            // empty queries and fragments, marks inside the fragment.
            "%2F", "%2f", "%3F", "%23", "?#", "#?", "??", "##", "xn--bcher-kva", "Ü", "user@", ":0", ":65535", ":65536",
        ]
        for _ in 0..<3_000 {
            let text = (0..<random.below(12)).map { _ in random.pick(pieces) }.joined()
            let ours = Result { () throws(AASAURLError) in try AASAURL(text) }
            let theirs = Result { () throws(AASAURLError) in try ReferenceURL(text) }
            switch (ours, theirs) {
            case (.success(let url), .success(let expected)):
                #expect(ReferenceURL(components: url) == expected, "\(text.debugDescription)")
            case (.failure(let error), .failure(let expected)):
                #expect(error == expected, "\(text.debugDescription)")
            default:
                Issue.record("\(text.debugDescription): \(ours) vs \(theirs)")
            }
        }
    }

    /// Where the first parser (over `Character`s) and the standard part:
    /// a delimiter followed by a combining mark is one grapheme, so it did
    /// not see the `#`; a URL parser works on code points and does.
    @Test func delimiterFollowedByCombiningMarkStillDelimits() throws {
        let url = try AASAURL("https://h/a#\u{301}b")
        #expect(url.path == "/a")
        #expect(url.fragment == "%CC%81b")
    }
}

/// A deterministic generator (SplitMix64) for the differential tests.
struct TestRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}
