import Testing

@testable import AASAKit

/// The duplicate search (hashes in an open-addressing table) against the
/// straightforward one (a dictionary of every item's whole key), and
/// the list's warnings, made across the cores, in list order.
@Suite struct DuplicateEntriesTests {
    /// Few distinct URLs, many spellings of each: the host's case, a default
    /// port, dot segments, an escape that encoding makes equal; and the
    /// platform, app and package that make equal URLs different tests.
    static func items(count: Int, random: inout TestRandom) -> [LinkTestPlan.Item] {
        let spellings = [
            "https://example.com/shop/%d", "https://EXAMPLE.com/shop/%d", "https://example.com:443/shop/%d",
            "https://example.com/x/../shop/%d", "https://example.com/shop/%d?", "http://example.com/shop/%d",
            "https://example.com/caf\u{E9}/%d", "https://example.com/caf%C3%A9/%d", "not a url %d",
        ]
        let apps: [LinkTestApp?] = [nil, nil, nil, .bundleID("com.example.app"), .appID("ABCDE12345.com.example.app")]
        return (0..<count).map { index in
            let text = random.pick(spellings).replacing("%d", with: "\(random.below(count / 4))")
            var entry = LinkExpectations.Entry(url: text, expectation: random.chance(50) ? .matched : .notMatched)
            entry.app = random.pick(apps)
            if random.chance(10) {
                entry.platform = .android
                entry.package = random.chance(50) ? nil : "com.example.app"
            }
            var lastHost = LinkTestPlan.LastHost()
            return LinkTestPlan.Item(
                entry: entry,
                url: Result { () throws(AASAURLError) in try AASAURL(text) },
                lastHost: &lastHost
            )
        }
    }

    private struct Tested: Hashable {
        var url: AASAURL
        var platform: LinkPlatform
        var package: String?
        var app: LinkTestApp?
    }

    /// The table's first occurrences, `nil` for an item it does not list.
    static func firstOccurrences(_ items: [LinkTestPlan.Item]) -> [Int?] {
        var firsts = [Int?](repeating: nil, count: items.count)
        for occurrence in DuplicateEntries.occurrences(items) {
            #expect(occurrence.first >= 0)
            firsts[Int(occurrence.index)] = Int(occurrence.first)
        }
        return firsts
    }

    /// For each item, the first earlier item testing the same thing: a
    /// dictionary of every item's whole key.
    static func reference(_ items: [LinkTestPlan.Item]) -> [Int?] {
        var firsts: [Tested: Int] = [:]
        return items.indices.map { index in
            guard case .success(let url) = items[index].url else { return nil }
            let entry = items[index].entry
            let key = Tested(url: url, platform: entry.platform, package: entry.package, app: entry.app)
            if let first = firsts[key] { return first }
            firsts[key] = index
            return nil
        }
    }

    @Test(arguments: [1, 2, 3])
    func theTableFindsWhatADictionaryOfKeysFinds(seed: UInt64) {
        var random = TestRandom(seed: seed)
        // Long enough for the hashes to be computed across the cores.
        let items = Self.items(count: 6_000, random: &random)
        let fast = Self.firstOccurrences(items)
        let slow = Self.reference(items)
        #expect(fast == slow)
        #expect(fast.contains { $0 != nil })
        // The list has http URLs too, the warnings' other case.
        #expect(items.contains { $0.isHTTP })
    }

    /// The items picked besides the duplicates come in list order among
    /// them, a duplicate picked too listed once, with its first occurrence.
    @Test func theItemsPickedAreListedInOrderAmongTheDuplicates() {
        var random = TestRandom(seed: 5)
        let items = Self.items(count: 6_000, random: &random)
        let firsts = Self.reference(items)
        let expected = items.indices.compactMap { index -> DuplicateEntries.Occurrence? in
            guard firsts[index] != nil || items[index].isHTTP else { return nil }
            return DuplicateEntries.Occurrence(index: Int32(index), first: Int32(firsts[index] ?? -1))
        }
        let listed = DuplicateEntries.occurrences(items) { $0.pointee.isHTTP }
        #expect(listed == expected)
        #expect(listed.contains { $0.first < 0 } && listed.contains { $0.first >= 0 && items[Int($0.index)].isHTTP })
    }

    /// A URL hashes from the hash of the host before it when `==` calls
    /// that host its own, canonically equivalent spellings included: the
    /// same bytes after either spelling still hash alike.
    @Test func hostsSpelledEquivalentlyStillFindTheDuplicates() {
        let nfc = "https://caf\u{E9}.example"
        let nfd = "https://cafe\u{301}.example"
        let other = "https://other.example"
        // Each URL written twice follows a host spelled one way the first
        // time, the other way the second.
        let texts = [
            nfc + "/a", other + "/x", nfd + "/b", nfc + "/a", nfd + "/a", other + "/y", nfc + "/b", nfd + "/a",
        ]
        let items = LinkTestPlan.parseItems(texts.map { .init(url: $0, expectation: .matched) })
        // Not vacuous: those items repeat a host spelled the other way.
        #expect(items[3].hostRepeats && items[7].hostRepeats)
        #expect(items[3].parsed?.host.utf8.count != items[2].parsed?.host.utf8.count)
        #expect(Self.firstOccurrences(items) == Self.reference(items))
        #expect(Self.firstOccurrences(items) == [nil, nil, nil, 0, nil, nil, nil, 4])
    }

    @Test func aShortListAndAnEmptyOne() {
        var random = TestRandom(seed: 7)
        let items = Self.items(count: 40, random: &random)
        #expect(Self.firstOccurrences(items) == Self.reference(items))
        #expect(DuplicateEntries.occurrences([]).isEmpty)
    }

    /// The messages, written as bytes, say what the interpolated ones said:
    /// the URL as written, the first occurrence's file and place, the other
    /// expectation.
    @Test func theWarningsSayWhereAndWhy() throws {
        let text = """
            {"deep_linkable_urls": ["https://example.com/a", "http://example.com/b"],
             "non_deep_linkable_urls": ["https://EXAMPLE.com/a", "http://example.com/b"]}
            """
        let list = try LinkExpectations(bytes: Array(text.utf8), file: "links.json")
        let file = AASAFile(json: [
            "applinks": ["details": [["appIDs": ["ABCDE12345.com.example.app"], "components": [["/": "/*"]]]]]
        ])
        let report = try LinkTestRunner(file: file).run(list, app: .appID("ABCDE12345.com.example.app"))
        let other = " with another expectation (matched), so one of them fails"
        #expect(
            report.warnings.map { "\($0.file ?? "-") \($0.path) \($0.code) \($0.message)" } == [
                "links.json non_deep_linkable_urls[0] links.duplicate-url https://EXAMPLE.com/a is already listed at links.json: deep_linkable_urls[0]\(other)",
                "links.json non_deep_linkable_urls[1] links.duplicate-url http://example.com/b is already listed at links.json: deep_linkable_urls[1]\(other)",
                "links.json non_deep_linkable_urls[1] links.http-url http://example.com/b is an http:// URL: iOS opens no app for it whatever the rules say, so this entry tests no rule; list the https:// URL",
            ]
        )
    }

    /// The list's warnings are appended to the plan's own (a host skipped),
    /// in that order.
    @Test func theListsWarningsFollowTheHostsSkipped() throws {
        let texts = [
            "https://other.example/a", "https://example.com/a", "https://EXAMPLE.com/a", "http://example.com/b",
        ]
        let list = LinkExpectations(
            entries: texts.enumerated().map { index, text in
                .init(url: text, expectation: .notMatched, path: JSONPath.root.appending("links").appending(index))
            }
        )
        let file = AASAFile(json: [
            "applinks": ["details": [["appIDs": ["ABCDE12345.com.example.app"], "components": [["/": "/shop/*"]]]]]
        ])
        let report = try LinkTestRunner(file: file, domain: "example.com")
            .run(list, app: .appID("ABCDE12345.com.example.app"))
        #expect(report.warnings.map(\.code) == ["links.other-host", "links.duplicate-url", "links.http-url"])
        #expect(report.warnings.map(\.path.description) == ["links[0]", "links[2]", "links[3]"])
    }

    /// Thousands of warnings, made in chunks across the cores, come out in
    /// list order, each entry's duplicate warning before its http one.
    @Test func manyWarningsStayInListOrder() throws {
        let count = 6_000
        let urls = (0..<count).map { "https://example.com/shop/\($0)" }
        // Every URL again, as http (its own URL: a warning of its own), then
        // once more as https (a duplicate).
        let texts = urls + urls.map { $0.replacing("https:", with: "http:") } + urls
        let list = LinkExpectations(
            entries: texts.enumerated().map { index, text in
                .init(url: text, expectation: .notMatched, path: JSONPath.root.appending("links").appending(index))
            }
        )
        let file = AASAFile(json: [
            "applinks": ["details": [["appIDs": ["ABCDE12345.com.example.app"], "components": [["/": "/shop/*"]]]]]
        ])
        let report = try LinkTestRunner(file: file).run(list, app: .appID("ABCDE12345.com.example.app"))
        let expected =
            (count..<2 * count).map { ("links.http-url", "links[\($0)]") }
            + (2 * count..<3 * count).map { ("links.duplicate-url", "links[\($0)]") }
        #expect(report.warnings.map(\.code) == expected.map(\.0))
        #expect(report.warnings.map(\.path.description) == expected.map(\.1))
        #expect(report.warnings.last?.message.hasSuffix("is already listed at links[\(count - 1)]") == true)
    }
}
