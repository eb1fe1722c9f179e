import Testing

@testable import AASAKit

/// The plan's host loop skips the items whose host repeats the URL parsed
/// before (``LinkTestPlan/Item/hostRepeats``, made in the parse's chunks):
/// the flag must never claim a repeat that is not one, and the plan must
/// decide what deciding every item's host would.
@Suite struct LinkTestPlanHostTests {
    /// URLs of a few hosts in runs, with URLs that do not parse between
    /// them, some failing after their host (a bad port), over several
    /// chunks of the parse.
    private static func entries(random: inout TestRandom) -> [LinkExpectations.Entry] {
        let hosts = ["example.com", "EXAMPLE.com", "shop.example.com", "other.example"]
        var host = hosts[0]
        return (0..<ParallelBatch.minimumChunk * 3 + 17).map { index in
            if random.chance(5) { host = random.pick(hosts) }
            var url = "https://\(host)/p/\(index)"
            if random.chance(3) { url = random.chance(50) ? "https://\(random.pick(hosts)):99999/x" : "not a url" }
            return .init(url: url, expectation: .matched, path: JSONPath.root.appending("links").appending(index))
        }
    }

    @Test(arguments: [1, 2, 3])
    func aRepeatIsTheHostOfTheURLParsedBefore(seed: UInt64) {
        var random = TestRandom(seed: 0x4057_0000 + seed)
        let items = LinkTestPlan.parseItems(Self.entries(random: &random))
        var before: String?
        var repeats = 0
        for item in items {
            guard let url = item.parsed else {
                #expect(!item.hostRepeats)
                continue
            }
            if item.hostRepeats {
                #expect(url.host == before)
                repeats += 1
            }
            before = url.host
        }
        #expect(repeats > items.count / 2)
    }

    /// With `--domain`, the URLs of other hosts are set aside by host in the
    /// order each host first appears; the rest are tested.
    @Test(arguments: [1, 2])
    func theURLsOfOtherHostsAreSkippedByHost(seed: UInt64) throws {
        var random = TestRandom(seed: 0x4057_1000 + seed)
        let entries = Self.entries(random: &random)
        let file = AASAFile(json: ["applinks": ["details": [["appIDs": ["ABCDE12345.com.example.app"]]]]])
        let domain = "example.com"
        let plan = try LinkTestPlan(
            LinkExpectations(entries: entries),
            sites: LinkTestSites(byHost: [domain: .init(name: domain, content: .file(file))]),
            domain: domain
        )
        var groups: [(host: String, entries: [LinkExpectations.Entry])] = []
        var tested: [LinkExpectations.Entry] = []
        for entry in entries {
            guard let host = try? AASAURL(entry.url).host, host != domain else {
                tested.append(entry)
                continue
            }
            if let group = groups.firstIndex(where: { $0.host == host }) {
                groups[group].entries.append(entry)
            } else {
                groups.append((host, [entry]))
            }
        }
        #expect(plan.skipped == groups.flatMap(\.entries))
        #expect(plan.items.map(\.entry) == tested)
        #expect(plan.warnings.filter { $0.code == "links.other-host" }.count == groups.count)
    }

    /// The hosts the plan names (the one-file-many-hosts warning, and the
    /// error when `--domain` leaves nothing to test) are every host of the
    /// list once, in the order each first appears, however its URLs are
    /// spread: runs crossing a chunk of the parse, a host coming back after
    /// others, URLs that do not parse between them.
    @Test func theHostsNamedAreEachHostOnceInOrder() throws {
        let run = ParallelBatch.minimumChunk + 5
        var urls: [String] = []
        urls += (0..<run).map { "https://a.example/\($0)" }
        urls += ["not a url", "https://a.example/after", "https://A.example/upper"]
        urls += (0..<run).map { "https://b.example/\($0)" }
        urls += ["https://a.example/again", "https://c.example/x", "https://b.example:99999/bad"]
        urls += (0..<run).map { "https://c.example/\($0)" }
        let entries = urls.enumerated().map { index, url in
            LinkExpectations.Entry(
                url: url,
                expectation: .matched,
                path: JSONPath.root.appending("links").appending(index)
            )
        }
        let file = AASAFile(json: ["applinks": ["details": [["appIDs": ["ABCDE12345.com.example.app"]]]]])
        let site = LinkTestSites.Site(name: "site", content: .file(file))
        let plan = try LinkTestPlan(LinkExpectations(entries: entries), sites: .everyHost(site), domain: nil)
        let warning = try #require(plan.warnings.first { $0.code == "links.one-file-many-hosts" })
        #expect(warning.message.hasPrefix("the list has URLs of 3 hosts (a.example, b.example, c.example),"))
        // URLs that do not parse stay to be tested (they fail), so they are
        // left out here, or the run would have something to test.
        let parsing = entries.filter { (try? AASAURL($0.url)) != nil }
        let error = #expect(throws: LinkTestSetupError.self) {
            try LinkTestPlan(LinkExpectations(entries: parsing), sites: .everyHost(site), domain: "d.example")
        }
        guard case .nothingToTest(_, let hosts) = error else {
            Issue.record("expected nothingToTest, got \(String(describing: error))")
            return
        }
        #expect(hosts == ["a.example", "b.example", "c.example"])
    }
}
