import Foundation
import Testing

@testable import AASAServer

/// Loading and reloading the served directory: validation, last-good
/// retention, and every hostile file shape.
@Suite("Site loader")
struct SiteLoaderTests {
    static func load(
        _ site: TemporarySite,
        previous: SiteSnapshot = .empty,
        force: Bool = true,
        hosts: ServerConfiguration.Hosts = .init()
    )
        throws -> LoadOutcome
    {
        try SiteLoader(configuration: site.configuration(hosts: hosts)).load(previous: previous, force: force)
    }

    @Test func loadsValidHosts() throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(), host: "a.example")
        try site.write(SampleFile.aasa(), host: "b.example")
        try site.write(SampleFile.assetLinks, host: "b.example", file: "assetlinks.json")
        try "not a host".write(toFile: site.path + "/README.md", atomically: true, encoding: .utf8)
        let outcome = try Self.load(site)
        #expect(outcome.issues.isEmpty)
        #expect(Set(outcome.snapshot.sites.keys) == ["a.example", "b.example"])
        #expect(outcome.snapshot.sites["b.example"]?.assetLinks?.appIDs == ["com.example.app"])
        #expect(outcome.snapshot.sites["a.example"]?.appleAppSiteAssociation?.appIDs == ["ABCDE12345.com.example.app"])
    }

    /// The app IDs `/status` lists for a file: applinks first, then the
    /// other services in turn, each app once, where it is first listed.
    @Test func appIDsListEachAppOnceInServiceOrder() throws {
        let site = try TemporarySite()
        try site.write(
            """
            {"applinks":{"details":[{"appIDs":["ABCDE12345.com.b","ABCDE12345.com.a"],"components":[]},
              {"appIDs":["ABCDE12345.com.a","ABCDE12345.com.c"],"components":[]}]},
             "webcredentials":{"apps":["ABCDE12345.com.d","ABCDE12345.com.b"]},
             "appclips":{"apps":["ABCDE12345.com.e.Clip","ABCDE12345.com.d"]},
             "activitycontinuation":{"apps":["ABCDE12345.com.f","ABCDE12345.com.f"]}}
            """,
            host: "a.example"
        )
        let outcome = try Self.load(site)
        #expect(
            outcome.snapshot.sites["a.example"]?.appleAppSiteAssociation?.appIDs == [
                "ABCDE12345.com.b", "ABCDE12345.com.a", "ABCDE12345.com.c", "ABCDE12345.com.d",
                "ABCDE12345.com.e.Clip", "ABCDE12345.com.f",
            ]
        )
    }

    @Test func invalidFileIsNotServedAndSaysWhy() throws {
        let site = try TemporarySite()
        try site.write(SampleFile.invalid, host: "a.example")
        let outcome = try Self.load(site)
        #expect(outcome.snapshot.sites["a.example"] == nil)
        let issue = try #require(outcome.issues.first)
        #expect(issue.path == "a.example/apple-app-site-association")
        #expect(issue.message.contains("applinks.details[0].components[0].exclude"))
        #expect(issue.message.contains("not served"))
        // The rejected file's lint warnings are not reported as "served with".
        #expect(outcome.warnings.isEmpty)
    }

    @Test func unchangedPollKeepsTheSnapshot() throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(), host: "a.example")
        try site.symlink("b.example", to: "a.example")
        let first = try Self.load(site)
        let second = try Self.load(site, previous: first.snapshot, force: false)
        #expect(second.snapshot === first.snapshot)
        #expect(second.filesValidated == 0)
    }

    @Test func invalidReplacementKeepsTheLastGoodVersion() throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(), host: "a.example")
        try site.write(SampleFile.aasa(), host: "b.example")
        let first = try Self.load(site)
        let good = try #require(first.snapshot.sites["a.example"]?.appleAppSiteAssociation)

        try site.write(SampleFile.invalid, host: "a.example")
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.new.app"), host: "b.example")
        let second = try Self.load(site, previous: first.snapshot)
        #expect(second.snapshot.sites["a.example"]?.appleAppSiteAssociation === good)
        #expect(second.issues.count == 1)
        #expect(second.issues.first?.message.contains("previous version stays served") == true)
        // One broken domain never blocks the others.
        #expect(second.snapshot.sites["b.example"]?.appleAppSiteAssociation?.appIDs == ["ABCDE12345.com.new.app"])
    }

    @Test func pollingReusesUnchangedFilesAndRereadsChangedOnes() throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(), host: "a.example")
        try site.write(SampleFile.aasa(), host: "b.example")
        let first = try Self.load(site)
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.changed.app"), host: "b.example")
        let second = try Self.load(site, previous: first.snapshot, force: false)
        #expect(second.filesValidated == 1)
        #expect(
            second.snapshot.sites["a.example"]?.appleAppSiteAssociation
                === first.snapshot.sites["a.example"]?.appleAppSiteAssociation
        )
        #expect(second.snapshot.sites["b.example"]?.appleAppSiteAssociation?.appIDs == ["ABCDE12345.com.changed.app"])
    }

    @Test func anUnchangedRejectedFileIsNotValidatedAgainByAPoll() throws {
        let site = try TemporarySite()
        try site.write(SampleFile.invalid, host: "a.example")
        let first = try Self.load(site, force: false)
        let poll = try Self.load(site, previous: first.snapshot, force: false)
        #expect(poll.filesValidated == 0)
        #expect(poll.issues == first.issues)
        #expect(poll.snapshot === first.snapshot)
        let signal = try Self.load(site, previous: poll.snapshot, force: true)
        #expect(signal.filesValidated == 1)
        #expect(signal.issues == first.issues)
    }

    @Test func halfWrittenFileIsPickedUpOnceComplete() throws {
        let site = try TemporarySite()
        let full = SampleFile.aasa()
        try site.write(String(full.prefix(full.count / 2)), host: "a.example")
        let first = try Self.load(site, force: false)
        #expect(first.snapshot.sites["a.example"] == nil)
        #expect(first.issues.first?.message.contains("json.syntax") == true)
        try site.write(full, host: "a.example")
        let second = try Self.load(site, previous: first.snapshot, force: false)
        #expect(second.issues.isEmpty)
        #expect(second.snapshot.sites["a.example"] != nil)
    }

    @Test func removedHostIsNoLongerServed() throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(), host: "a.example")
        let first = try Self.load(site)
        try site.remove("a.example")
        #expect(try Self.load(site, previous: first.snapshot).snapshot.sites.isEmpty)
    }

    /// Hostile file contents: each rejected with a message naming the problem.
    static let hostile: [(String, Data, String)] = [
        ("truncated JSON", Data("{\"applinks\":{\"details\":[".utf8), "json.syntax"),
        ("invalid UTF-8", Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D]), "json.syntax"),
        ("UTF-8 BOM", Data([0xEF, 0xBB, 0xBF]) + Data(SampleFile.aasa().utf8), "byte-order mark"),
        (
            "100,000 levels (over the cap)",
            Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8),
            "file.too-large"
        ),
        (
            "60,000 levels", Data((String(repeating: "[", count: 60_000) + String(repeating: "]", count: 60_000)).utf8),
            "deeper than"
        ),
        ("not an object", Data("[1,2,3]".utf8), "schema.type"),
        ("empty", Data(), "json.syntax"),
        ("131,073 bytes", Data(repeating: 0x20, count: 131_073), "the file is 131,073 bytes"),
        ("257,750 bytes", Data(repeating: 0x20, count: 257_750), "the file is 257,750 bytes"),
        ("10 MB", Data(repeating: 0x20, count: 10_000_000), "the file is 10,000,000 bytes"),
    ]

    @Test(arguments: hostile)
    func rejects(_ name: String, contents: Data, expected: String) throws {
        let site = try TemporarySite()
        try site.write(contents, host: "a.example")
        let outcome = try Self.load(site)
        #expect(outcome.snapshot.sites["a.example"] == nil, "\(name)")
        #expect(outcome.issues.contains { $0.message.contains(expected) }, "\(name): \(outcome.issues)")
    }

    @Test func exactly131072BytesIsServed() throws {
        let site = try TemporarySite()
        let prefix =
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/a","comment":""#
        let suffix = #""}]}]}}"#
        let padding = String(repeating: "x", count: 131_072 - prefix.utf8.count - suffix.utf8.count)
        try site.write(prefix + padding + suffix, host: "a.example")
        let outcome = try Self.load(site)
        #expect(outcome.snapshot.sites["a.example"]?.appleAppSiteAssociation?.size == 131_072)
        #expect(!outcome.issues.contains { $0.host == "a.example" })
    }

    @Test func fifoIsRefusedWithoutBlocking() throws {
        let site = try TemporarySite()
        try FileManager.default.createDirectory(atPath: site.path + "/a.example", withIntermediateDirectories: true)
        #expect(mkfifo(site.path + "/a.example/apple-app-site-association", 0o644) == 0)
        let outcome = try Self.load(site)
        #expect(outcome.issues.contains { $0.message.contains("FIFO") })
        #expect(outcome.snapshot.sites.isEmpty)
    }

    @Test func deviceFileIsRefused() throws {
        let site = try TemporarySite()
        try FileManager.default.createDirectory(atPath: site.path + "/a.example", withIntermediateDirectories: true)
        try site.symlink("a.example/apple-app-site-association", to: "/dev/zero")
        let outcome = try Self.load(site)
        #expect(outcome.snapshot.sites.isEmpty)
        #expect(outcome.issues.contains { $0.message.contains("leaves the served directory") })
    }

    @Test func symlinkedDirectoryIsAnAlias() throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(), host: "brand.example")
        try site.symlink("staging.brand.example", to: "brand.example")
        let outcome = try Self.load(site)
        #expect(outcome.issues.isEmpty)
        #expect(outcome.snapshot.sites["staging.brand.example"] === outcome.snapshot.sites["brand.example"])
    }

    /// The layout of a Kubernetes ConfigMap volume: `host -> ..data/host`,
    /// `..data -> ..2026_11_22_…`, swapped atomically on update.
    @Test func configMapVolumeLayoutIsServed() throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(), host: "..2026_11_22_04_00_00.1/brand.example")
        try site.symlink("..data", to: "..2026_11_22_04_00_00.1")
        try site.symlink("brand.example", to: "..data/brand.example")
        let outcome = try Self.load(site)
        #expect(outcome.issues.isEmpty)
        #expect(Array(outcome.snapshot.sites.keys) == ["brand.example"])
    }

    @Test func symlinkLeavingTheDirectoryIsRefused() throws {
        let site = try TemporarySite()
        let outside = try TemporarySite()
        try outside.write(SampleFile.aasa(), host: "evil.example")
        try site.symlink("evil.example", to: outside.path + "/evil.example")
        let outcome = try Self.load(site)
        #expect(outcome.snapshot.sites.isEmpty)
        #expect(outcome.issues.first?.message.contains("leaves the served directory") == true)
    }

    @Test func symlinkLoopIsReported() throws {
        let site = try TemporarySite()
        try site.symlink("a.example", to: "b.example")
        try site.symlink("b.example", to: "a.example")
        let outcome = try Self.load(site)
        #expect(outcome.snapshot.sites.isEmpty)
        #expect(outcome.issues.count == 2)
    }

    @Test(arguments: ["not a host", "x_y..z", "-bad.example"])
    func invalidDirectoryNamesAreReported(name: String) throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(), host: name)
        let outcome = try Self.load(site)
        #expect(outcome.snapshot.sites.isEmpty)
        #expect(outcome.issues.first?.message.contains("not a valid host name") == true)
    }

    @Test func missingDirectoryThrows() throws {
        let directory = "/nonexistent/aasa-\(UUID())"
        let configuration = ServerConfiguration(files: .init(directory: directory))
        let error = #expect(throws: FileSystemError.self) {
            try SiteLoader(configuration: configuration).load(previous: .empty, force: true)
        }
        #expect(error == FileSystemError(path: directory, code: .notFound))
    }

    @Test func aHostsOwnDirectoryWinsOverAConfiguredAlias() throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.brand.app"), host: "brand.example")
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.staging.app"), host: "staging.brand.example")
        let outcome = try Self.load(site, hosts: .init(aliases: ["staging.brand.example=brand.example"]))
        #expect(
            outcome.snapshot.sites["staging.brand.example"]?.appleAppSiteAssociation?.appIDs == [
                "ABCDE12345.com.staging.app"
            ]
        )
        #expect(outcome.issues.first?.message.contains("alias ignored") == true)
    }

    @Test func badAliasesAndDefaultAreReported() throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(), host: "brand.example")
        let outcome = try Self.load(
            site,
            hosts: .init(
                defaultHost: "missing.example",
                aliases: ["nonsense", "../x=brand.example", "a.example=missing.example"]
            )
        )
        #expect(outcome.issues.count == 4)
        #expect(outcome.snapshot.fallback == nil)
    }
}
