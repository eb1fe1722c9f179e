import AASAKit
import Testing

/// Runs over many hosts: each URL against its own host's file, and every way
/// a run used to pass while the user was in trouble.
@Suite struct LinkTestSitesTests {
    static let team = "ABCDE12345"

    static func file(_ rules: [JSONValue], apps: [String] = ["ABCDE12345.com.example.app"]) -> AASAFile {
        AASAFile(json: [
            "applinks": ["details": [["appIDs": .array(apps.map(JSONValue.string)), "components": .array(rules)]]]
        ])
    }

    static func site(_ name: String, _ file: AASAFile) -> LinkTestSites.Site {
        LinkTestSites.Site(name: "aasa/\(name)/apple-app-site-association", content: .file(file))
    }

    /// example.com opens /shop/*, www.example.com opens /recipes/*,
    /// *.example.com (every other subdomain) opens /any/*.
    static let brand = LinkTestSites(byHost: [
        "example.com": site("example.com", file([["/": "/shop/*"]])),
        "WWW.example.com": site("www.example.com", file([["/": "/recipes/*"]])),
        "*.example.com": site("*.example.com", file([["/": "/any/*"]])),
    ])

    private func run(
        _ entries: [(String, LinkExpectations.Expectation)],
        sites: LinkTestSites = brand,
        domain: String? = nil,
        coverage: Bool = false,
        app: LinkTestApp? = .bundleID("com.example.app")
    ) throws -> LinkTestReport {
        let list = LinkExpectations(
            entries: entries.enumerated().map { index, entry in
                .init(url: entry.0, expectation: entry.1, path: JSONPath.root.appending("links").appending(index))
            }
        )
        return try LinkTestRunner(sites: sites, domain: domain, coverage: coverage).run(list, app: app)
    }

    @Test func eachURLIsMatchedAgainstItsOwnHostsFile() throws {
        let report = try run([
            ("https://example.com/shop/1", .matched),
            ("https://www.example.com/recipes/1", .matched),
            ("https://www.example.com/shop/1", .notMatched),
            ("https://Example.COM/recipes/1", .notMatched),
        ])
        #expect(report.failures.map(\.summary) == [])
        #expect(report.results.map(\.site) == ["example.com", "www.example.com", "www.example.com", "example.com"])
    }

    @Test func aWildcardServesOtherSubdomainsButNotTheDomainItself() throws {
        let report = try run([
            ("https://a.b.example.com/any/1", .matched),
            ("https://shop.example.com/any/1", .matched),
            ("https://www.example.com/any/1", .notMatched),
        ])
        #expect(report.failures.map(\.summary) == [])
        #expect(report.results.map(\.site) == ["*.example.com", "*.example.com", "www.example.com"])
        let bare = LinkTestSites(byHost: ["*.example.com": Self.site("w", Self.file([["/": "*"]]))])
        #expect(bare.site(for: "example.com") == nil)
        #expect(bare.site(for: "x.example.com")?.key == "*.example.com")
    }

    /// A URL whose host has no file used to be a silent "does not open".
    @Test(arguments: [LinkExpectations.Expectation.matched, .notMatched, .none])
    func aURLWhoseHostHasNoFileFails(expectation: LinkExpectations.Expectation) throws {
        let report = try run([("https://example.org/shop/1", expectation), ("https://example.com/shop/1", .matched)])
        let result = try #require(report.results.first)
        #expect(result.failure == .noFile)
        #expect(result.message.contains("example.org"))
        #expect(result.message.contains("example.com"))
        #expect(!report.succeeded(strict: false))
    }

    @Test(arguments: [LinkExpectations.Expectation.matched, .notMatched])
    func aFileTheSystemIgnoresFailsEveryURLItServes(expectation: LinkExpectations.Expectation) throws {
        let sites = LinkTestSites(byHost: [
            "example.com": .init(name: "big", content: .unusable("big is 200000 bytes")),
            "www.example.com": Self.site("www.example.com", Self.file([["/": "*"]])),
        ])
        let report = try run(
            [("https://example.com/x", expectation), ("https://www.example.com/x", .matched)],
            sites: sites
        )
        #expect(report.results.map(\.failure) == [.fileUnusable, nil])
        #expect(report.results.first?.message == "big is 200000 bytes")
    }

    /// iOS opens apps for https links only, whatever the rules say.
    @Test func anHTTPURLExpectedToOpenTheAppFails() throws {
        let report = try run([("http://example.com/shop/1", .matched)])
        let result = try #require(report.results.first)
        #expect(result.failure == .httpScheme)
        #expect(result.decision == .matched)
        #expect(result.summary.contains("https:// links only"))
    }

    @Test(arguments: [LinkExpectations.Expectation.notMatched, .blocked, .none])
    func anHTTPURLExpectedNotToOpenPassesButTestsNothing(expectation: LinkExpectations.Expectation) throws {
        let report = try run([("http://example.com/shop/1", expectation)])
        #expect(report.failedCount == 0)
        #expect(report.warnings.map(\.code) == ["links.http-url"])
        #expect(report.warnings.first?.path.description == "links[0]")
        #expect(!report.succeeded(strict: true))
    }

    @Test func aURLListedTwiceIsAWarning() throws {
        let report = try run([
            ("https://example.com/shop/1", .matched),
            ("https://EXAMPLE.com/shop/1", .matched),
            ("https://example.com/shop/1", .notMatched),
            ("https://example.com/shop/2", .matched),
        ])
        #expect(report.warnings.map(\.code) == ["links.duplicate-url", "links.duplicate-url"])
        #expect(report.warnings.map(\.path.description) == ["links[1]", "links[2]"])
        #expect(
            report.warnings.map(\.message) == [
                "https://EXAMPLE.com/shop/1 is already listed at links[0]",
                "https://example.com/shop/1 is already listed at links[0] with another expectation (matched), so one of them fails",
            ]
        )
    }

    /// A list long enough for the duplicates to be found across the cores:
    /// each repeat names the first occurrence, in list order, however the
    /// URL is written; distinct URLs are never duplicates.
    @Test func duplicatesInALongListNameTheirFirstOccurrence() throws {
        let distinct = (0..<5_000).map { ("https://example.com/shop/\($0)", LinkExpectations.Expectation.matched) }
        let repeats: [(String, LinkExpectations.Expectation)] = [
            ("https://EXAMPLE.com/shop/4999", .matched),
            ("https://example.com/shop/./7", .matched),
            ("https://example.com:443/shop/7", .matched),
        ]
        let report = try run(distinct + repeats)
        #expect(report.warnings.map(\.code) == Array(repeating: "links.duplicate-url", count: 3))
        #expect(report.warnings.map(\.path.description) == ["links[5000]", "links[5001]", "links[5002]"])
        let firsts = report.warnings.map { $0.message.components(separatedBy: "already listed at ").last ?? "" }
        #expect(firsts == ["links[4999]", "links[7]", "links[7]"])
    }

    @Test func oneFileForManyHostsIsAWarning() throws {
        let sites = LinkTestSites.everyHost(Self.site("f", Self.file([["/": "*"]])))
        let report = try run(
            [("https://example.com/a", .matched), ("https://www.example.com/a", .matched)],
            sites: sites
        )
        #expect(report.failedCount == 0)
        #expect(report.warnings.map(\.code) == ["links.one-file-many-hosts"])
    }

    @Test func aBundleIDNamingSeveralAppsIsAWarningAndEachIsTested() throws {
        let file = Self.file([["/": "*"]], apps: ["ABCDE12345.com.example.app", "ZZZZZ99999.com.example.app"])
        let sites = LinkTestSites(byHost: ["example.com": Self.site("example.com", file)])
        let report = try run([("https://example.com/a", .matched), ("https://example.com/b", .matched)], sites: sites)
        #expect(report.results.count == 4)
        #expect(report.warnings.map(\.code) == ["links.ambiguous-bundle-id"])
    }

    @Test func anAppMissingFromOneHostFailsThatHostsURLsOnly() throws {
        let sites = LinkTestSites(byHost: [
            "example.com": Self.site("example.com", Self.file([["/": "*"]])),
            "staff.example.com": Self.site("staff", Self.file([["/": "*"]], apps: ["ABCDE12345.com.example.staff"])),
        ])
        let report = try run(
            [("https://example.com/a", .matched), ("https://staff.example.com/a", .notMatched)],
            sites: sites
        )
        #expect(report.results.map(\.failure) == [nil, .appNotListed])
    }

    @Test func withNoAppGivenTheOnlyListedAppIsTested() throws {
        let report = try run([("https://example.com/shop/1", .matched)], app: nil)
        #expect(report.results.map(\.appID) == ["ABCDE12345.com.example.app"])
    }

    @Test func anEmptyListIsASetupError() {
        #expect {
            try LinkTestRunner(sites: Self.brand).run(LinkExpectations(entries: []))
        } throws: { error in
            if case .emptyList = error as? LinkTestSetupError { return true }
            return false
        }
    }

    @Test(arguments: [
        (
            LinkTestApp.appID("com.example.app"),
            UnknownApp.Suggestion.bundleID("com.example.app", listedAs: "ABCDE12345.com.example.app")
        ),
        (.bundleID("ABCDE12345.com.example.app"), .appID("ABCDE12345.com.example.app")),
        (.bundleID("com.example.ap"), .similar(.bundleID("com.example.app"))),
        (.appID("ABCDE12345.com.example.apq"), .similar(.appID("ABCDE12345.com.example.app"))),
        (.bundleID("com.example.web"), .otherService("webcredentials", appID: "ABCDE12345.com.example.web")),
    ])
    func anUnknownAppIsOneErrorWithTheLikeliestFix(app: LinkTestApp, suggestion: UnknownApp.Suggestion) {
        var json = Self.file([["/": "*"]]).json
        json = ["applinks": json["applinks"] ?? .null, "webcredentials": ["apps": ["ABCDE12345.com.example.web"]]]
        let sites = LinkTestSites(byHost: ["example.com": Self.site("example.com", AASAFile(json: json))])
        #expect {
            try run(
                [("https://example.com/a", .matched), ("https://example.com/b", .notMatched)],
                sites: sites,
                app: app
            )
        } throws: { error in
            guard case .unknownApps(let apps) = error as? LinkTestSetupError, apps.count == 1 else { return false }
            return apps[0].suggestion == suggestion && apps[0].sources == [.run]
        }
    }

    @Test func anUnknownAppInAnEntryNamesTheEntry() throws {
        let list = LinkExpectations(entries: [
            .init(
                url: "https://example.com/a",
                expectation: .matched,
                app: .bundleID("com.typo"),
                path: JSONPath.root.appending(3),
                file: "l.json"
            )
        ])
        #expect {
            try LinkTestRunner(sites: Self.brand).run(list, app: .bundleID("com.example.app"))
        } throws: { error in
            guard case .unknownApps(let apps) = error as? LinkTestSetupError else { return false }
            let text = (error as? LinkTestSetupError)?.description ?? ""
            return apps.first?.sources == [.entry(file: "l.json", path: JSONPath.root.appending(3))]
                && text.contains("l.json: [3]")
        }
    }
}
