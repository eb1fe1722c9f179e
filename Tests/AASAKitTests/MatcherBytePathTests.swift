import Testing

@testable import AASAKit

/// The matcher compares ASCII components as bytes and everything else as
/// scalars (``MatchText``). These tests hold the two ways to the same
/// decisions: randomised against ``MatcherReference`` with an alphabet
/// chosen to cross between them (non-ASCII text, escapes of one to three
/// UTF-8 bytes, malformed and non-UTF-8 escapes, mixed case and letters
/// that fold to ASCII, `?` over multi-byte characters, query dictionaries
/// and fragments), and with URLs made from parts whose components are not
/// ASCII at all (the parser never makes one), which go the scalar way.
@Suite struct MatcherBytePathTests {
    static let appID = MatcherFixture.appID

    static let alphabet = RandomRules.Alphabet(
        segments: [
            "a", "ab", "Ab", "aB", "s", "S", "k", "K", "é", "É", "ß", "ẞ", "日本", "€", "%41", "%61", "%2F", "%C3%A9",
            "%c3%a9", "%C3%89", "%E2%82%AC", "%e6%97%a5", "%C3", "%FF", "%zz", "%", "e%CC%81", "7", "",
        ],
        patternSegments: [
            "a", "ab", "AB", "s", "ſ", "\u{212A}", "k", "é", "É", "ß", "€", "日本", "?", "??", "???", "?b", "*", "a*",
            "*b", "%41", "%c3%a9", "%E2%82%AC", "$(v)", "$(w)", "$(upper)", "$(alpha)",
        ],
        itemNames: ["q", "Q", "é", "%71", "€"]
    )

    @Test(arguments: 0..<8)
    func bytesAndScalarsAgreeWithReference(seed: UInt64) throws {
        var random = TestRandom(seed: 0xB17E_0000 + seed)
        for _ in 0..<60 {
            let text = RandomRules.file(&random, alphabet: Self.alphabet)
            let file = try MatcherFixture.parse(text)
            let matcher = AASAMatcher(file: file)
            let reference = MatcherReference(file: file)
            var urls = try (0..<20).map { _ in try AASAURL(RandomRules.url(&random, Self.alphabet)) }
            urls += (0..<10).map { _ in Self.urlFromParts(&random) }
            for url in urls {
                let result = matcher.evaluate(url, appID: Self.appID)
                let fast = MatcherReference.Outcome(
                    decision: result.decision,
                    rule: result.rule.map { [$0.detailIndex, $0.ruleIndex] },
                    notes: result.notes
                )
                #expect(fast == reference.evaluate(url, appID: Self.appID), "\(url) against \(text)")
            }
        }
    }

    /// A query item's name is compared by scalars, not canonically (no
    /// Unicode normalisation, SEMANTICS.md): an NFD `é` is another name than
    /// the rule's NFC one, so the rule sees the item as absent. The reference
    /// compared names with `String`'s canonical `==` until a random URL of
    /// this suite met the difference.
    @Test func queryItemNamesAreComparedByScalars() throws {
        let file = try MatcherFixture.parse(
            #"{"applinks": {"details": [{"appIDs": ["\#(Self.appID)"], "components": [{"/": "/a", "?": {"\#u{E9}": ""}}]}]}}"#
        )
        let matcher = AASAMatcher(file: file)
        let reference = MatcherReference(file: file)
        let decomposed = AASAURL(scheme: "https", host: "h", path: "/a", query: "e\u{301}=s")
        let composed = AASAURL(scheme: "https", host: "h", path: "/a", query: "\u{E9}=s")
        #expect(matcher.evaluate(decomposed, appID: Self.appID).decision == .matched)
        #expect(matcher.evaluate(composed, appID: Self.appID).decision == .none)
        for url in [decomposed, composed] {
            let result = matcher.evaluate(url, appID: Self.appID)
            let fast = MatcherReference.Outcome(
                decision: result.decision,
                rule: result.rule.map { [$0.detailIndex, $0.ruleIndex] },
                notes: result.notes
            )
            #expect(fast == reference.evaluate(url, appID: Self.appID), "\(url)")
        }
    }

    /// A URL whose components are taken as written, non-ASCII included.
    static func urlFromParts(_ random: inout TestRandom) -> AASAURL {
        let segments = alphabet.segments + ["/", "//", "*", "**", "&", "=", "&=", "e\u{301}", "&\u{301}"]
        let path = "/" + (0..<random.below(4)).map { _ in random.pick(segments) }.joined(separator: "/")
        let query = RandomRules.query(
            &random,
            RandomRules.Alphabet(
                segments: segments,
                patternSegments: [],
                itemNames: alphabet.itemNames + ["日", "e\u{301}"]
            )
        )
        let fragment = random.chance(30) ? random.pick(segments) + random.pick(segments) : nil
        return AASAURL(scheme: "https", host: "h", path: path, query: query, fragment: fragment)
    }

    /// Without this the tests above could pass with every component on the
    /// scalar way: a parsed URL's components are bytes, a decoded escape of
    /// non-ASCII is scalars, and so is a component made from non-ASCII.
    @Test func theInputTakesBytesOnlyForASCII() throws {
        var input = MatchInput(url: try AASAURL("https://h/Caf%C3%A9//x?q=%E2%82%AC&a=b#fr%41g"))
        #expect(input.withPath(decoded: false, Self.spelled) == "bytes /Caf%C3%A9/x/")
        #expect(input.withPath(decoded: true, Self.spelled) == "scalars /Café/x/")
        #expect(input.withQuery(decoded: false, Self.spelled) == "bytes q=%E2%82%AC&a=b")
        #expect(input.withQuery(decoded: true, Self.spelled) == "scalars q=€&a=b")
        #expect(input.withFragment(decoded: true, Self.spelled) == "bytes frAg")
        input.reset(url: AASAURL(scheme: "https", host: "h", path: "/ß", fragment: "日本"))
        #expect(input.withPath(decoded: false, Self.spelled) == "scalars /ß/")
        #expect(input.withFragment(decoded: true, Self.spelled) == "scalars 日本")
        #expect(input.withQuery(decoded: true, Self.spelled) == "bytes ")
        input.reset(url: try AASAURL("https://h/%C3"))
        #expect(input.withPath(decoded: true, Self.spelled) == nil)
        #expect(input.withPath(decoded: false, Self.spelled) == "bytes /%C3/")
    }

    @Test func queryItemsAreRangesOfOneText() throws {
        var input = MatchInput(url: try AASAURL("https://h/?q=%C3%A9&%71=x&a&=v&q=%41"))
        let encoded = input.queryItems(decoded: false)
        #expect(encoded.map(Self.items) == [["q", "%C3%A9"], ["%71", "x"], ["a", ""], ["", "v"], ["q", "%41"]])
        let decoded = input.queryItems(decoded: true)
        guard case .scalars? = decoded?.text else {
            Issue.record("a decoded é is not ASCII")
            return
        }
        #expect(decoded.map(Self.items) == [["q", "é"], ["q", "x"], ["a", ""], ["", "v"], ["q", "A"]])
        input.reset(url: try AASAURL("https://h/?q=%C3&a=b"))
        let undecodable = input.queryItems(decoded: true)
        let encodedAgain = input.queryItems(decoded: false)
        #expect(undecodable == nil && encodedAgain != nil)
    }

    /// Literals that fold to ASCII meet bytes folded the same way; `?` takes
    /// one scalar of a decoded multi-byte character, one byte of an escape.
    @Test(arguments: [
        (#"{"/": "/ſ/", "caseSensitive": false}"#, "https://h/S", MatchDecision.matched),
        (#"{"/": "/ſ/", "caseSensitive": true}"#, "https://h/s", .none),
        ("{\"/\": \"/\u{212A}*\", \"caseSensitive\": false}", "https://h/kb", .matched),
        (#"{"/": "/a/?/", "percentEncoded": false}"#, "https://h/a/%E2%82%AC", .matched),
        (#"{"/": "/a/?/"}"#, "https://h/a/%E2%82%AC", .none),
        (#"{"/": "/a/?????????/"}"#, "https://h/a/%E2%82%AC", .matched),
        (#"{"?": {"q": "?"}, "percentEncoded": false}"#, "https://h/?q=%C3%A9", .matched),
        (#"{"?": {"é": "A*"}, "percentEncoded": false, "caseSensitive": false}"#, "https://h/?%C3%A9=ab", .matched),
        (##"{"#": "?b", "percentEncoded": false}"##, "https://h/#%E6%97%A5b", .matched),
    ])
    func foldingAndOneCharacter(_ component: String, _ url: String, _ decision: MatchDecision) throws {
        #expect(try MatcherFixture.decide(component, url) == decision)
    }

    /// How a lent text is spelled: `bytes` or `scalars`, then the text.
    private static func spelled(_ text: LentText) -> String {
        switch text {
        case .ascii(let bytes):
            return "bytes " + String(decoding: bytes, as: UTF8.self)
        case .scalars(let scalars):
            var string = "scalars "
            string.unicodeScalars.append(contentsOf: scalars)
            return string
        }
    }

    private static func items(_ list: QueryItemList) -> [[String]] {
        list.items.map { item in
            [item.name, item.value].map { range in
                switch list.text {
                case .ascii(let bytes): String(decoding: bytes[range], as: UTF8.self)
                case .scalars(let scalars): String(String.UnicodeScalarView(scalars[range]))
                }
            }
        }
    }
}
