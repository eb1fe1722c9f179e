import Dispatch
import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import AASAServer

/// Defect 4, on a real disk: a host directory swapped back and forth with a
/// symlink to an outside directory while loads run. The loader walks the
/// root with `O_NOFOLLOW`, so the outside file is never served, and never
/// even opened.
@Suite("Symlinks on a real disk")
struct SymlinkRaceTests {
    @Test(.timeLimit(.minutes(2))) func aDirectorySwappedForAnOutsideLinkIsNeverRead() throws {
        let site = try TemporarySite()
        let outside = try TemporarySite()
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.inside.app"), host: "a.example")
        try outside.write(SampleFile.aasa(app: "ABCDE12345.com.outside.app"), host: "evil")
        let outsideFile = try FileStamp.of(outside.path + "/evil/apple-app-site-association")
        let outsideDirectory = try FileStamp.of(outside.path + "/evil")

        let host = site.path + "/a.example"
        let parked = site.path + "/.a.example.parked"
        let link = site.path + "/.a.example.link"
        let stop = NIOLockedValueBox(false)
        let swaps = NIOLockedValueBox(0)
        let finished = DispatchSemaphore(value: 0)
        let target = outside.path + "/evil"
        // The attacker: a directory and a symlink to the outside take turns
        // under the host's name. Each state is held for a short spin (no
        // sleep), long enough for loads to meet both and the swaps between.
        let hold: @Sendable () -> Void = {
            for _ in 0..<2_000 where stop.withLockedValue({ $0 }) { return }
        }
        let swapper = Thread {
            _ = symlink(target, link)
            while !stop.withLockedValue({ $0 }) {
                hold()
                _ = rename(host, parked)
                _ = rename(link, host)
                hold()
                _ = unlink(host)
                _ = rename(parked, host)
                _ = symlink(target, link)
                swaps.withLockedValue { $0 += 1 }
            }
            finished.signal()
        }
        swapper.start()
        defer {
            stop.withLockedValue { $0 = true }
            _ = finished.wait(timeout: .now() + 10)
        }

        let fileSystem = RecordingFileSystem()
        let loader = SiteLoader(configuration: site.configuration(), fileSystem: fileSystem)
        var previous = SiteSnapshot.empty
        var servedInside = 0
        var refused = 0
        for index in 0..<2_000 {
            let outcome = try loader.load(previous: previous, force: index % 2 == 0)
            let apps = outcome.snapshot.sites["a.example"]?.appleAppSiteAssociation?.appIDs ?? []
            #expect(!apps.contains("ABCDE12345.com.outside.app"))
            if apps == ["ABCDE12345.com.inside.app"] { servedInside += 1 }
            if outcome.issues.contains(where: { $0.message.contains("leaves the served directory") }) { refused += 1 }
            previous = outcome.snapshot
        }
        #expect(swaps.withLockedValue { $0 } > 0)
        // Both states were met (so the race windows between them were too).
        #expect(servedInside > 0)
        #expect(refused > 0)
        let opened = fileSystem.opened
        #expect(!opened.contains(RecordingFileSystem.Identity(outsideFile)))
        #expect(!opened.contains(RecordingFileSystem.Identity(outsideDirectory)))
    }

    @Test func aFileLinkedInsideTheDirectoryIsServedAndOneLinkedOutsideIsNot() throws {
        let site = try TemporarySite()
        let outside = try TemporarySite()
        try site.write(SampleFile.aasa(), host: ".shared")
        try site.write(SampleFile.assetLinks, host: "a.example", file: "assetlinks.json")
        try site.symlink("a.example/apple-app-site-association", to: "../.shared/apple-app-site-association")
        try outside.write(SampleFile.assetLinks, host: "x", file: "assetlinks.json")
        try site.write(SampleFile.aasa(), host: "b.example")
        try site.symlink("b.example/assetlinks.json", to: outside.path + "/x/assetlinks.json")
        let outcome = try SiteLoader(configuration: site.configuration()).load(previous: .empty, force: true)
        #expect(outcome.snapshot.sites["a.example"]?.appleAppSiteAssociation != nil)
        #expect(outcome.snapshot.sites["b.example"]?.assetLinks == nil)
        #expect(
            outcome.issues.map(\.description) == [
                "b.example/assetlinks.json: symlink to \(outside.path)/x/assetlinks.json leaves the served directory; not served"
            ]
        )
    }

    @Test func anAbsoluteLinkIntoTheDirectoryIsAnAlias() throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(), host: "a.example")
        try site.symlink("b.example", to: site.path + "/a.example")
        let outcome = try SiteLoader(configuration: site.configuration()).load(previous: .empty, force: true)
        #expect(outcome.issues.isEmpty)
        #expect(outcome.snapshot.sites["b.example"] === outcome.snapshot.sites["a.example"])
    }
}

extension FileStamp {
    /// The stamp of a path on the real disk (following symlinks), for comparisons.
    static func of(_ path: String) throws -> FileStamp {
        try PosixFileSystem().openFile(atPath: path).status().stamp
    }
}
