import Testing

@testable import AASAKit

/// A run over many hosts compiles each distinct file once and shares it:
/// a brand's domains mostly serve one file, and compiling every copy again
/// cost a whole compile's time and memory per host. Sharing must change
/// nothing a user reads: each result still names its own host's file.
@Suite struct SharedCompileTests {
    static let app = "ABCDE12345.com.example.app"

    /// Three different files: languages, a shop, everything but accounts.
    static let templates: [JSONValue] = [
        [["/": "/$(lang)/menu/*"], ["/": "/shop/$(lang)-$(region)/*"]],
        [["/": "/account/*", "exclude": true], ["/": "/shop/*"], ["/": "/help/*", "?": ["q": "?*"]]],
        // `/never/*`: no URL of the lists exercises it, so coverage reports it.
        [["/": "/account/*", "exclude": true], ["/": "/never/*"], ["/": "*"]],
    ]

    /// Template `template` of ``templates``; `tag` gives the file a key no
    /// matcher reads, which makes it a different file with the same rules.
    static func file(_ template: Int, tag: String? = nil) -> AASAFile {
        var json: JSONValue = [
            "applinks": ["details": [["appIDs": .array([.string(app)]), "components": templates[template]]]]
        ]
        if let tag, case .object(var object) = json {
            object["webcredentials"] = ["apps": .array([.string("ABCDE12345.\(tag)")])]
            json = .object(object)
        }
        return AASAFile(json: json)
    }

    static let hostCount = 60
    static func host(_ index: Int) -> String { "h\(index).example" }

    /// Hosts `h0`…: files of the three templates (identical copies, or each
    /// made distinct with `tagged`), one unusable, one with no file.
    static func sites(tagged: Bool) -> LinkTestSites {
        var sites: [String: LinkTestSites.Site] = [:]
        for index in 0..<hostCount - 2 {
            let template = index % 7 == 0 ? 2 : index % 2
            sites[host(index)] = .init(
                name: "aasa/\(host(index))/apple-app-site-association",
                content: .file(file(template, tag: tagged ? host(index) : nil))
            )
        }
        sites[host(hostCount - 2)] = .init(name: "aasa/broken", content: .unusable("not JSON"))
        return LinkTestSites(byHost: sites)
    }

    static let paths = ["/en/menu/a", "/de/menu/b", "/shop/en-GB/c", "/shop/x", "/account/me", "/help/?q=1", "/other"]

    /// Random URLs over every host (and one with no file), some hosts never
    /// named, with random expectations.
    static func expectations(count: Int, random: inout TestRandom) -> LinkExpectations {
        LinkExpectations(
            entries: (0..<count).map { index in
                let host = host(random.below(hostCount + 1))
                let expectation = LinkExpectations.Expectation.allCases[random.below(4)]
                return LinkExpectations.Entry(
                    url: "https://\(host)\(random.pick(paths))",
                    expectation: expectation,
                    path: JSONPath([.key("links"), .index(index)])
                )
            }
        )
    }

    /// The shared run's report, byte for byte, is the report of the same
    /// run with every host's file compiled on its own (the files made
    /// distinct by a key no matcher reads), with coverage.
    @Test(arguments: [1, 2, 3])
    func sharedCompilesReportAsSeparateOnes(seed: UInt64) throws {
        var random = TestRandom(seed: 0x5A4E_0000 + seed)
        let list = Self.expectations(count: ParallelBatch.minimumChunk + 501, random: &random)
        let run = { (sites: LinkTestSites) in
            try LinkTestRunner(sites: sites, coverage: true).run(list, app: .bundleID("com.example.app"))
        }
        let shared = try run(Self.sites(tagged: false))
        let separate = try run(Self.sites(tagged: true))
        #expect(shared.results.contains { $0.failure == .fileUnusable })
        #expect(shared.results.contains { $0.failure == .noFile })
        #expect(shared.results.contains { $0.passed })
        #expect(shared.results.contains { !$0.passed && $0.site != nil })
        let rules = (LinkTestRuleTable(shared), LinkTestRuleTable(separate))
        #expect(rules.0.rules == rules.1.rules)
        #expect(
            shared.resultLines(level: 2, rules: rules.0).joined()
                .elementsEqual(separate.resultLines(level: 2, rules: rules.1).joined())
        )
        #expect(shared.textLines(appColumn: true).joined().elementsEqual(separate.textLines(appColumn: true).joined()))
        #expect(shared.warnings == separate.warnings)
        #expect(shared.uncoveredRules?.map(\.warning) == separate.uncoveredRules?.map(\.warning))
        #expect(shared.uncoveredRules?.isEmpty == false)
    }

    /// N hosts serving k distinct files: k compiles, each host with its own
    /// key, name and file, and only the hosts the list names are compiled.
    @Test func eachDistinctFileIsCompiledOnce() throws {
        let sites = Self.sites(tagged: false)
        // Every host but h5 and h6, each twice.
        let hosts = (0..<Self.hostCount).filter { $0 != 5 && $0 != 6 }
        let list = LinkExpectations(
            entries: (hosts + hosts).enumerated().map { index, host in
                .init(url: "https://\(Self.host(host))/shop/x", expectation: .matched, path: .root.appending(index))
            }
        )
        let plan = try LinkTestPlan(list, sites: sites, domain: nil)
        let loaded = plan.items.withUnsafeBufferPointer(LinkTestRunner(sites: sites).loadedSites)
        // The usable hosts named: all but h5, h6 and the two without a file.
        #expect(loaded.count == Self.hostCount - 4)
        #expect(loaded[Self.host(5)] == nil && loaded[Self.host(6)] == nil)
        #expect(Set(loaded.values.map { ObjectIdentifier($0.compiled) }).count == 3)
        #expect(Set(loaded.values.map(\.slot)) == Set(0..<loaded.count))
        for (key, site) in loaded {
            #expect(site.key == key)
            #expect(site.name == "aasa/\(key)/apple-app-site-association")
        }

        let files = (0..<Self.hostCount - 2).map { Self.file($0 % 3) }
        #expect(CompiledSite.compile(files).compiled == 3)
        #expect(AASAMatcher.compileCounting(files).compiled == 3)
        let tagged = (0..<10).map { Self.file(0, tag: "t\($0)") }
        #expect(CompiledSite.compile(tagged).compiled == 10)
    }

    /// Apple entries whose host repeats the URL's before them
    /// (``LinkTestPlan/Item/hostRepeats``, also across an unparsable URL)
    /// are skipped only when that URL was an Apple entry's: a host an
    /// Android entry named first is compiled all the same.
    @Test func aHostRepeatingAnAndroidEntrysIsStillLoaded() throws {
        let sites = Self.sites(tagged: false)
        let entries: [(url: String, platform: LinkPlatform)] = [
            ("https://\(Self.host(1))/a", .android), ("https://\(Self.host(1))/b", .apple),
            ("https://\(Self.host(2))/a", .android), ("not a url", .apple), ("https://\(Self.host(2))/b", .apple),
            ("https://\(Self.host(3))/a", .apple), ("https://\(Self.host(3))/b", .apple),
            ("https://\(Self.host(4))/a", .android),
        ]
        let list = LinkExpectations(
            entries: entries.enumerated().map { index, entry in
                .init(url: entry.url, expectation: .matched, platform: entry.platform, path: .root.appending(index))
            }
        )
        let plan = try LinkTestPlan(list, sites: sites, domain: nil)
        #expect(plan.items.map(\.hostRepeats) == [false, true, false, false, true, false, true, false])
        let loaded = plan.items.withUnsafeBufferPointer(LinkTestRunner(sites: sites).loadedSites)
        #expect(Set(loaded.keys) == [Self.host(1), Self.host(2), Self.host(3)])
        // `--domain` sets other hosts' URLs aside (not the unparsable one):
        // what is left still starts each run of a host.
        let serving = try LinkTestPlan(list, sites: sites, domain: Self.host(3))
        #expect(serving.items.map(\.hostRepeats) == [false, false, true])
        let loadedForDomain = serving.items.withUnsafeBufferPointer(LinkTestRunner(sites: sites).loadedSites)
        #expect(Set(loadedForDomain.keys) == [Self.host(3)])
    }

    /// A shared compile serving a domain decides as a matcher compiled for
    /// that domain: the host check is per URL, nothing compiled depends on it.
    @Test func aSharedMatcherServesEachDomainAsItsOwn() throws {
        let files = (0..<12).map { Self.file($0 % 3) }
        let shared = AASAMatcher.compile(files)
        var random = TestRandom(seed: 0x5A4E_D0)
        for (index, file) in files.enumerated() {
            let domain = index % 4 == 0 ? "*.H\(index).example" : Self.host(index)
            let matcher = shared[index].serving(domain: domain)
            let own = AASAMatcher(file: file, domain: domain)
            #expect(matcher.domain == own.domain)
            for _ in 0..<20 {
                let host = random.pick([Self.host(index), "www.\(Self.host(index))", Self.host(index + 1)])
                let url = try AASAURL("https://\(host)\(random.pick(Self.paths))")
                let (got, expected) = (matcher.evaluate(url, appID: Self.app), own.evaluate(url, appID: Self.app))
                #expect(got.decision == expected.decision)
                #expect(got.reason == expected.reason)
            }
        }
    }
}
