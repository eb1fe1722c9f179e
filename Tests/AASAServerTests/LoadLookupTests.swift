import Testing

@testable import AASAServer

/// What a load asks of the file system per host: at 10,000 hosts every
/// lookup is 10,000 system calls on the way to serving the first request.
@Suite("Lookups per load")
struct LoadLookupTests {
    @Test func aFirstLoadLooksAtEachHostAndFileOnce() throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(), host: "brand.example")
        let fileSystem = CountingFileSystem()
        let outcome = try SiteLoader(configuration: site.configuration(), fileSystem: fileSystem)
            .load(previous: .empty, force: false)
        #expect(outcome.snapshot.sites["brand.example"]?.appleAppSiteAssociation != nil)
        // The scan's look at the entry is the open's first step too.
        #expect(fileSystem.lookups(of: "brand.example") == 1)
        #expect(fileSystem.opens(of: "brand.example") == 1)
        // A file no load has served is read whatever its stamp: opened at
        // once, not looked at first and then looked up again to open.
        #expect(fileSystem.lookups(of: "apple-app-site-association") == 1)
        #expect(fileSystem.opens(of: "apple-app-site-association") == 1)
        // The file found proves the directory searchable: it is not looked
        // at for the one-issue check of an unsearchable directory.
        #expect(fileSystem.lookups(of: ".") == 0)
    }

    @Test func aHostDirectoryIsLookedAtWhenItsFirstFileIsNotFound() throws {
        let site = try TemporarySite()
        try site.write(SampleFile.assetLinks, host: "android.example", file: "assetlinks.json")
        let fileSystem = CountingFileSystem()
        let outcome = try SiteLoader(configuration: site.configuration(), fileSystem: fileSystem)
            .load(previous: .empty, force: false)
        #expect(outcome.snapshot.sites["android.example"]?.assetLinks != nil)
        #expect(fileSystem.lookups(of: ".") == 1)
    }

    /// One host loaded once, the counts then cleared: what a later load asks.
    private static func loadedOnce() throws -> (SiteLoader, CountingFileSystem, LoadOutcome, TemporarySite) {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(), host: "brand.example")
        let fileSystem = CountingFileSystem()
        let loader = SiteLoader(configuration: site.configuration(), fileSystem: fileSystem)
        let first = try loader.load(previous: .empty, force: false)
        fileSystem.reset()
        return (loader, fileSystem, first, site)
    }

    @Test func aPollLooksAtAnUnchangedFileWithoutOpeningIt() throws {
        let (loader, fileSystem, first, site) = try Self.loadedOnce()
        defer { withExtendedLifetime(site) {} }
        let second = try loader.load(previous: first.snapshot, force: false)
        #expect(
            second.snapshot.sites["brand.example"]?.appleAppSiteAssociation
                === first.snapshot.sites["brand.example"]?.appleAppSiteAssociation
        )
        #expect(fileSystem.lookups(of: "apple-app-site-association") == 1)
        #expect(fileSystem.opens(of: "apple-app-site-association") == 0)
    }

    @Test func aForcedLoadOpensEveryFileAtOnce() throws {
        let (loader, fileSystem, first, site) = try Self.loadedOnce()
        defer { withExtendedLifetime(site) {} }
        let forced = try loader.load(previous: first.snapshot, force: true)
        #expect(forced.snapshot.sites["brand.example"]?.appleAppSiteAssociation != nil)
        #expect(fileSystem.lookups(of: "apple-app-site-association") == 1)
        #expect(fileSystem.opens(of: "apple-app-site-association") == 1)
    }
}
