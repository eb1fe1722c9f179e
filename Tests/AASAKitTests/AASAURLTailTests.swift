import Testing

@testable import AASAKit

/// A common URL read from a links file keeps its tail as a span of the
/// file's bytes instead of a string of its own: the storage must never
/// show. Equal bytes are equal URLs with equal hashes, and the components,
/// the description and the matcher's verdict are the string's.
@Suite struct AASAURLTailTests {
    static let urls = [
        "https://h", "https://h/", "https://h?", "https://h#", "https://h/?#", "https://h/a?b#c", "https://h/a#b?c#d",
        "https://links.bench.example/shop/12?q=red+shoes#share-4", "http://h/x?", "https://h/a.b/%2f?q=.#..",
        // Not common (the general parse copies them): string tails alike.
        "https://h/caf\u{E9}", "https://H/a", "https://h:8443/a", "https://h/a/../b",
    ]

    /// `text` parsed from a file's bytes, after a few bytes of JSON so that
    /// the span starts inside the file.
    static func parseInFile(_ text: String) throws -> (url: AASAURL, source: LinkListSource) {
        let prefix = Array(#"{"links": [""#.utf8)
        let source = LinkListSource(bytes: prefix + Array(text.utf8) + Array(#""]}"#.utf8), file: nil)
        var host: String?
        let file = URLByteParser.FileSpan(source: source, start: Int32(prefix.count))
        let url = try source.withBytes(start: file.start, count: Int32(text.utf8.count)) { bytes in
            Result { () throws(AASAURLError) in
                try URLByteParser.parse(bytes, original: { text }, host: &host, in: file)
            }
        }.get()
        return (url, source)
    }

    static func duplicateHash(_ url: AASAURL) -> Int {
        DuplicateEntries.hash(of: url, hostHash: DuplicateEntries.hostHash(url.host))
    }

    static func isSpan(_ url: AASAURL, of source: LinkListSource) -> Bool {
        guard case .span(let held, _, _) = url.tail else { return false }
        return held === source
    }

    @Test func spanAndStringOfTheSameBytesAreTheSameURL() throws {
        var spans = 0
        for text in Self.urls {
            let (spanned, source) = try Self.parseInFile(text)
            let string = try AASAURL(text)
            if Self.isSpan(spanned, of: source) { spans += 1 }
            #expect(!Self.isSpan(string, of: source))
            #expect(spanned == string && string == spanned, "\(text)")
            #expect(spanned.hashValue == string.hashValue, "\(text)")
            #expect(Self.duplicateHash(spanned) == Self.duplicateHash(string), "\(text)")
            #expect(Set([spanned, string]).count == 1)
            #expect(spanned.path == string.path && spanned.query == string.query, "\(text)")
            #expect(spanned.fragment == string.fragment && spanned.port == string.port, "\(text)")
            #expect(spanned.description == string.description, "\(text)")
        }
        // Not vacuous: the common URLs kept their tails in the file.
        #expect(spans == 10)
    }

    @Test func spansOfOtherBytesDiffer() throws {
        let (spanned, _) = try Self.parseInFile("https://h/a?b")
        #expect(spanned != (try AASAURL("https://h/a?c")))
        #expect(spanned != (try AASAURL("https://h/a#b")))
        #expect(spanned != (try Self.parseInFile("https://h/a?bc")).url)
        #expect(spanned == (try Self.parseInFile("https://h/a?b")).url)
    }

    /// The parse's ``URLByteParser/FileSpan`` holds its source unretained:
    /// the span the URL keeps must retain it, so the URL reads the file's
    /// bytes after every other reference to the source is gone.
    @Test func aSpanKeepsItsSourceAlive() throws {
        weak var held: LinkListSource?
        let url = try {
            let (url, source) = try Self.parseInFile("https://h/a/b?c=d#e")
            #expect(Self.isSpan(url, of: source))
            held = source
            return url
        }()
        #expect(held != nil)
        #expect(url.path == "/a/b" && url.query == "c=d" && url.fragment == "e")
        #expect(url.description == "https://h/a/b?c=d#e")
        withExtendedLifetime(url) {}
    }

    /// Changing a component makes a string of the whole tail again.
    @Test func settingAComponentOfASpan() throws {
        var (url, source) = try Self.parseInFile("https://h/a?b#c")
        url.query = "x"
        #expect(!Self.isSpan(url, of: source))
        #expect(url == (try AASAURL("https://h/a?x#c")) && url.description == "https://h/a?x#c")
    }

    /// The matcher reads a span's components as it reads a string's.
    @Test func spansGetTheStringsVerdicts() throws {
        let file = try MatcherFixture.file(
            components: ##"[{"/": "/shop/*", "?": {"q": "red*"}, "#": "share-?"}, {"/": "/a.b/*", "exclude": true}]"##
        )
        let matcher = AASAMatcher(file: file)
        for text in Self.urls {
            let spanned = try Self.parseInFile(text).url
            let left = matcher.evaluate(spanned, appID: MatcherFixture.appID)
            let right = matcher.evaluate(try AASAURL(text), appID: MatcherFixture.appID)
            #expect("\(left.decision) \(left.reason)" == "\(right.decision) \(right.reason)", "\(text)")
        }
        let shop = try Self.parseInFile("https://h/shop/1?q=red+shoes#share-4").url
        #expect(matcher.evaluate(shop, appID: MatcherFixture.appID).decision == .matched)
    }

    /// A links file's common URLs are parsed into spans of their entry's
    /// own source (the scanner's, one per few hundred entries): no string
    /// per URL, and no object that both cores' chunks retain.
    @Test func aListsItemsKeepTheirTailsInTheirEntrysSource() throws {
        let urls = (0..<3_000).map { "\"https://h/shop/\($0)?q=\($0 % 7)\"" }
        let text = #"{"deep_linkable_urls": ["# + urls.joined(separator: ", ") + "]}"
        let list = try LinkExpectations(bytes: Array(text.utf8), file: "links.json")
        let items = LinkTestPlan.parseItems(list.entries)
        #expect(items.count == 3_000)
        for (index, item) in items.enumerated() {
            let url = try #require(item.parsed)
            let source = try #require(item.entry.written.source)
            let string = try AASAURL(item.entry.url)
            #expect(Self.isSpan(url, of: source) && url == string, "\(index)")
        }
    }
}
