import Testing

@testable import AASAKit

/// `"platform": "android"` entries of a links list, judged by the dynamic
/// App Link rules of the host's assetlinks.json, and every way they could
/// pass while nothing was evaluated.
@Suite struct AndroidLinkTestTests {
    static let apple = AASAFile(json: [
        "applinks": ["details": [["appIDs": ["ABCDE12345.com.example.app"], "components": [["/": "/shop/*"]]]]]
    ])

    static func assetLinks(_ json: String) -> LinkTestSites.Site.AssetLinks {
        .file(AssetLinksFile(bytes: Array(json.utf8))!, name: "aasa/example.com/assetlinks.json")
    }

    /// `/account/*` blocked, then `/shop/*`, for com.example.app.
    static let rules = assetLinks(
        AssetLinksSample.rules(#"[{"/":"/account/*","exclude":true},{"/":"/shop/*","?":{"ref":"?*"}}]"#)
    )

    static func sites(_ assetLinks: LinkTestSites.Site.AssetLinks?) -> LinkTestSites {
        LinkTestSites(byHost: [
            "example.com": .init(
                name: "aasa/example.com/apple-app-site-association",
                content: .file(apple),
                assetLinks: assetLinks
            )
        ])
    }

    func run(
        _ entries: [(String, LinkExpectations.Expectation)],
        assetLinks: LinkTestSites.Site.AssetLinks? = rules,
        package: String? = nil,
        entryPackage: String? = nil,
        coverage: Bool = false
    ) throws(LinkTestSetupError) -> LinkTestReport {
        let list = LinkExpectations(
            entries: entries.enumerated().map { index, entry in
                .init(
                    url: entry.0,
                    expectation: entry.1,
                    platform: .android,
                    package: entryPackage,
                    path: JSONPath.root.appending("links").appending(index)
                )
            }
        )
        return try LinkTestRunner(sites: Self.sites(assetLinks), coverage: coverage).run(list, package: package)
    }

    @Test func entriesAreJudgedByTheDynamicRulesWithAndroidQuerySemantics() throws {
        let report = try run([
            ("https://example.com/shop/1?utm=x&ref=abc", .matched),
            ("https://example.com/account/1", .blocked),
            ("https://example.com/shop/1", .none),
            ("https://example.com/SHOP/1?ref=abc", .notMatched),
        ])
        #expect(report.failures.map(\.summary) == [])
        #expect(report.results.map(\.package) == Array(repeating: "com.example.app", count: 4))
        #expect(report.results.map { $0.dynamicRule?.index } == [1, 0, nil, nil])
    }

    @Test func failuresNameTheRuleThatDecided() throws {
        let report = try run([("https://example.com/account/1", .matched), ("https://example.com/shop/1?ref=a", .none)])
        #expect(report.results.map(\.failure) == [.excluded, .incorrectlyHandled])
        #expect(report.results[1].summary.contains(#"[0].relation_extensions"#))
        #expect(try report.results[1].json["rule"]?["index"] == 1)
        #expect(try report.results[1].json["platform"] == "android")
    }

    @Test func anHTTPURLIsJudgedByTheRulesOnAndroid() throws {
        let report = try run([("http://example.com/shop/1?ref=a", .matched)])
        #expect(report.failures.isEmpty)
        #expect(report.warnings.isEmpty)
    }

    /// A "must not open" entry passes only when a rule decided it.
    @Test func nothingEvaluatedIsAFailureWhateverTheExpectation() throws {
        let none: LinkTestSites.Site.AssetLinks? = nil
        #expect(try run([("https://example.com/x", .notMatched)], assetLinks: none).results.map(\.failure) == [.noFile])
        let unreadable = LinkTestSites.Site.AssetLinks.unusable("not JSON")
        #expect(
            try run([("https://example.com/x", .notMatched)], assetLinks: unreadable).results.map(\.failure)
                == [.fileUnusable]
        )
        let rejected = Self.assetLinks(
            #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.example.app","sha256_cert_fingerprints":["ab:cd"]}}]"#
        )
        let result = try run([("https://example.com/x", .notMatched)], assetLinks: rejected).results[0]
        #expect(result.failure == .fileUnusable)
        #expect(result.message.contains("Google rejects"))
        let noRules = Self.assetLinks(AssetLinksSample.file())
        let fallback = try run([("https://example.com/x", .notMatched)], assetLinks: noRules).results[0]
        #expect(fallback.failure == .intentFilters)
        let malformed = Self.assetLinks(AssetLinksSample.rules(#"[{"/":"/shop/*","exlude":true}]"#))
        let ignored = try run([("https://example.com/shop/1", .notMatched)], assetLinks: malformed).results[0]
        #expect(ignored.failure == .intentFilters)
        #expect(ignored.message.contains("malformed"))
    }

    @Test func theOnePackageGrantedIsTheDefaultAndOthersAreUsageErrors() throws {
        #expect(try run([("https://example.com/shop/1?ref=a", .matched)]).failures.isEmpty)
        #expect(throws: LinkTestSetupError.self) {
            try run([("https://example.com/shop/1", .matched)], package: "com.example.ap")
        }
        do {
            _ = try run([("https://example.com/shop/1", .matched)], entryPackage: "com.example.ap")
            Issue.record("an unknown package ran")
        } catch {
            guard case .unknownPackage("com.example.ap", _, "com.example.app") = error else {
                Issue.record("\(error)")
                return
            }
            #expect(error.description.contains("did you mean com.example.app?"))
        }
        let two = Self.assetLinks(
            "[" + AssetLinksSample.rules("[]").dropFirst().dropLast() + ","
                + AssetLinksSample.rules("[]", package: "com.example.other").dropFirst()
        )
        do {
            _ = try run([("https://example.com/shop/1", .matched)], assetLinks: two)
            Issue.record("a run with two packages and none given ran")
        } catch {
            guard case .noPackageGiven(let granted) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(granted == ["com.example.app", "com.example.other"])
        }
    }

    @Test func coverageWarnsAboutDynamicRulesNoURLDecides() throws {
        let report = try run([("https://example.com/shop/1?ref=a", .matched)], coverage: true)
        #expect(report.warnings.map(\.code) == ["links.uncovered-rule"])
        #expect(report.warnings.first?.path.description.hasSuffix("dynamic_app_link_components[0]") == true)
        #expect(!report.succeeded(strict: true))
    }

    @Test func appleAndAndroidEntriesForTheSameURLAreNotDuplicates() throws {
        let list = LinkExpectations(entries: [
            .init(url: "https://example.com/shop/1?ref=a", expectation: .matched),
            .init(url: "https://example.com/shop/1?ref=a", expectation: .matched, platform: .android),
        ])
        let report = try LinkTestRunner(sites: Self.sites(Self.rules)).run(list)
        #expect(report.failures.map(\.summary) == [])
        #expect(report.warnings.isEmpty)
        #expect(report.results.map(\.app) == ["ABCDE12345.com.example.app", "com.example.app"])
    }
}
