import Foundation
import Testing

@testable import AASAKit

/// The demo brand's Android half (aasa/*/assetlinks.json) against the same
/// hosts' regression lists, which were written for the iOS app: the Android
/// rules mirror the Apple ones wherever the platforms can agree.
@Suite("assetlinks.json demo brand")
struct AssetLinksDemoTests {
    /// URLs where Android must differ from the iOS expectation, and why.
    static let platformDifferences: [String: String] = [
        "https://pastaio.example/IT/Menu/Primi":
            "Android rules are case-sensitive; the Apple file sets caseSensitive false",
        "https://pastaio-de.example/DE/Speisekarte":
            "Android rules are case-sensitive; the Apple file sets caseSensitive false",
    ]

    @Test func androidDecisionsMirrorTheIOSExpectations() throws {
        var compared = 0
        for (host, url) in try AssetLinksDemo.files() {
            let file = try #require(AssetLinksFile(bytes: Array(try Data(contentsOf: url))))
            let matcher = DynamicLinkMatcher(file: file, host: host)
            // An alias directory (a symlink) holds its target's links, written for the target's host.
            let directory = url.deletingLastPathComponent()
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: directory.path)) == nil,
                let data = try? Data(contentsOf: directory.appending(path: "links.json"))
            else { continue }
            let list = try JSONParser().parse(Array(data)).value
            for (key, opens) in [("deep_linkable_urls", true), ("non_deep_linkable_urls", false)] {
                for link in list[key]?.arrayValue?.compactMap(\.stringValue) ?? [] {
                    let result = matcher.evaluate(try AASAURL(link), package: "com.pastaio.app")
                    let expected = Self.platformDifferences[link] == nil ? opens : !opens
                    #expect((result.decision == .matched) == expected, "\(link): \(result.reason)")
                    compared += 1
                }
            }
        }
        #expect(compared > 40)
    }

    @Test func theKitchenAppOpensOnlyStaffPages() throws {
        let (host, url) = try #require(try AssetLinksDemo.files().first { $0.host == "pastaio.example" })
        let file = try #require(AssetLinksFile(bytes: Array(try Data(contentsOf: url))))
        let matcher = DynamicLinkMatcher(file: file, host: host)
        #expect(matcher.packages == ["com.pastaio.app", "com.pastaio.kitchen"])
        let staff = try AASAURL("https://pastaio.example/staff/turni")
        #expect(matcher.evaluate(staff, package: "com.pastaio.kitchen").decision == .matched)
        #expect(matcher.evaluate(staff, package: "com.pastaio.app").decision == .none)
    }

    /// Every host shares credentials on both platforms or on neither.
    @Test func credentialSharingIsPairedOnEveryHost() throws {
        for (host, url) in try AssetLinksDemo.files() {
            let assetLinks = try #require(AssetLinksFile(bytes: Array(try Data(contentsOf: url))))
            let aasaURL = url.deletingLastPathComponent().appending(path: "apple-app-site-association")
            let association = AASAFile(json: try JSONParser().parse(Array(try Data(contentsOf: aasaURL))).value)
            let found = CredentialSharingLint().diagnostics(assetLinks: assetLinks, association: association)
            #expect(found.isEmpty, "\(host): \(found)")
        }
    }
}

/// The demo brand's assetlinks.json files.
enum AssetLinksDemo {
    static let directory = URL(filePath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "aasa")

    /// `(host, file)` for every host directory holding an assetlinks.json.
    static func files() throws -> [(host: String, url: URL)] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().compactMap { host in
            let url = directory.appending(path: host).appending(path: "assetlinks.json")
            return FileManager.default.fileExists(atPath: url.path) ? (host, url) : nil
        }
    }
}
