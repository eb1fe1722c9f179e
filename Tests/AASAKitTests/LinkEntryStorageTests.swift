import Testing

@testable import AASAKit

/// An entry the scanner reads keeps only its span, list and index, and
/// makes its other fields on demand; an entry made any other way, or
/// changed, keeps them in a box. Either way it must read, compare and hash
/// as the entry the public initialiser makes of the same values.
@Suite struct LinkEntryStorageTests {
    private typealias Entry = LinkExpectations.Entry

    private static let bytes = Array(
        #"{"deep_linkable_urls": ["https://example.com/a"], "non_deep_linkable_urls": ["http://example.com/b"]}"#.utf8
    )

    private static func scanned() throws -> [Entry] {
        try #require(LinkListScanner.entries(of: bytes, file: "links.json"))
    }

    /// What an entry says, field by field.
    private static func fields(_ entry: Entry) -> [String] {
        [
            entry.url, entry.expectation.rawValue, entry.app.map { "\($0.isBundleID) \($0)" } ?? "-",
            entry.platform.rawValue, entry.package ?? "-", entry.path.description, entry.file ?? "-",
        ]
    }

    private static func plain(_ entry: Entry) -> Entry {
        Entry(
            url: entry.url,
            expectation: entry.expectation,
            app: entry.app,
            platform: entry.platform,
            package: entry.package,
            path: entry.path,
            file: entry.file
        )
    }

    private static func expectSame(
        _ entry: Entry,
        _ reference: Entry,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(fields(entry) == fields(reference), sourceLocation: sourceLocation)
        #expect(entry == reference, sourceLocation: sourceLocation)
        #expect(entry.hashValue == reference.hashValue, sourceLocation: sourceLocation)
    }

    @Test func scannedEntriesReadAsTheirValues() throws {
        let entries = try Self.scanned()
        #expect(entries.allSatisfy { if case .bytes = $0.written { true } else { false } })
        #expect(
            entries.map(Self.fields) == [
                ["https://example.com/a", "matched", "-", "apple", "-", "deep_linkable_urls[0]", "links.json"],
                [
                    "http://example.com/b", "not-matched", "-", "apple", "-", "non_deep_linkable_urls[0]",
                    "links.json",
                ],
            ]
        )
        for entry in entries { Self.expectSame(entry, Self.plain(entry)) }
    }

    /// Each field changed on a scanned entry (to another value, then back to
    /// the one it had) reads as the same change made through the initialiser.
    @Test(arguments: 0..<7)
    func changedFieldsReadAsMadeWhole(field: Int) throws {
        let original = try Self.scanned()[0]
        var entry = original
        var expected = Self.fields(original)
        switch field {
        case 0: entry.url = "https://example.com/c"
        case 1: entry.expectation = .blocked
        case 2: entry.app = .bundleID("com.example.app")
        case 3: entry.platform = .android
        case 4: entry.package = "com.example.android"
        case 5: entry.path = JSONPath([.key("links"), .index(3), .key("url")])
        default: entry.file = nil
        }
        // The value assigned, as `fields` writes it (not read back through
        // the entry's own getters, which a wrong setter would agree with).
        expected[field] =
            [
                "https://example.com/c", LinkExpectations.Expectation.blocked.rawValue, "true com.example.app",
                LinkPlatform.android.rawValue, "com.example.android", "links[3].url", "-",
            ][field]
        #expect(Self.fields(entry) == expected)
        #expect(Self.fields(entry) != Self.fields(original))
        Self.expectSame(entry, Self.plain(entry))
        #expect(entry != original)
        // Back to the old value: the same entry again, whatever it keeps.
        switch field {
        case 0: entry.url = original.url
        case 1: entry.expectation = original.expectation
        case 2: entry.app = nil
        case 3: entry.platform = .apple
        case 4: entry.package = nil
        case 5: entry.path = original.path
        default: entry.file = original.file
        }
        Self.expectSame(entry, original)
    }

    /// A place's description written as bytes is its path's description.
    @Test func placesDescribeThemselvesAsTheirPaths() {
        let paths =
            LinkListKey.allCases.flatMap { key in
                [0, 7, 12_345, Int(Int32.max) + 1].map { JSONPath([.key(key.rawValue), .index($0)]) }
            } + [.root, JSONPath([.key("links"), .index(3), .key("url")]), JSONPath([.key("a b"), .index(1)])]
        for path in paths {
            var bytes: [UInt8] = []
            LinkEntryPlace(path).appendDescription(to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == path.description)
        }
    }

    /// A listed place with an index too large for the compact form is kept
    /// whole, and still equals the same place made any other way.
    @Test func largeIndicesKeepTheirPlace() {
        let path = JSONPath([.key("deep_linkable_urls"), .index(Int(Int32.max) + 1)])
        let entry = Entry(url: "https://example.com/a", expectation: .matched, path: path)
        #expect(entry.path == path)
        var moved = Entry(url: "https://example.com/a", expectation: .matched)
        moved.path = path
        Self.expectSame(moved, entry)
    }
}
