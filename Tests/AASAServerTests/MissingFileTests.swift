import Foundation
import Testing

@testable import AASAServer

/// Defect 7: a file replaced by `rm` and a new copy (what `git checkout` and
/// `tar` do) was unpublished by a poll that caught the instant it was
/// missing. Now a file or host is dropped only when two loads in a row find
/// it missing; SIGHUP takes the directory as it is.
@Suite("Files missing for an instant")
struct MissingFileTests {
    static let file = LoaderSeamTests.file

    static func poll(_ fileSystem: FakeFileSystem, after previous: LoadOutcome) throws -> LoadOutcome {
        try LoaderSeamTests.load(fileSystem, previous: previous.snapshot, force: false)
    }

    @Test func aFileMissingAtOnePollStaysServedUntilTheNext() throws {
        let fileSystem = FakeFileSystem()
        fileSystem.write(Self.file, SampleFile.aasa())
        let first = try LoaderSeamTests.load(fileSystem)
        let served = try #require(first.snapshot.sites["a.example"]?.appleAppSiteAssociation)

        fileSystem.remove(Self.file)
        let missing = try Self.poll(fileSystem, after: first)
        #expect(missing.snapshot.sites["a.example"]?.appleAppSiteAssociation === served)
        #expect(missing.stillServedWhileMissing == [Self.file])
        #expect(missing.issues.isEmpty)
        // Nothing served changed: the generation does not move.
        #expect(missing.snapshot.generation == first.snapshot.generation)

        let gone = try Self.poll(fileSystem, after: missing)
        #expect(gone.snapshot.sites["a.example"] == nil)
        #expect(gone.stillServedWhileMissing.isEmpty)
        #expect(gone.snapshot.generation == first.snapshot.generation + 1)
    }

    @Test func removeAndRecreateNeverUnpublishes() throws {
        let fileSystem = FakeFileSystem()
        fileSystem.write(Self.file, SampleFile.aasa(app: "ABCDE12345.com.v0.app"))
        var outcome = try LoaderSeamTests.load(fileSystem)
        for version in 1...20 {
            fileSystem.remove(Self.file)
            outcome = try Self.poll(fileSystem, after: outcome)
            #expect(outcome.snapshot.sites["a.example"]?.appleAppSiteAssociation != nil, "version \(version)")
            fileSystem.write(Self.file, SampleFile.aasa(app: "ABCDE12345.com.v\(version).app"))
            outcome = try Self.poll(fileSystem, after: outcome)
            #expect(
                outcome.snapshot.sites["a.example"]?.appleAppSiteAssociation?.appIDs == [
                    "ABCDE12345.com.v\(version).app"
                ]
            )
            #expect(outcome.stillServedWhileMissing.isEmpty)
        }
    }

    @Test func aHostDirectoryMissingAtOnePollStaysServedUntilTheNext() throws {
        let fileSystem = FakeFileSystem()
        fileSystem.write(Self.file, SampleFile.aasa())
        fileSystem.symlink("b.example", to: "a.example")
        let first = try LoaderSeamTests.load(fileSystem)
        let host = try #require(first.snapshot.sites["a.example"])

        fileSystem.rename("a.example", to: ".a.example.old")
        let missing = try Self.poll(fileSystem, after: first)
        #expect(missing.snapshot.sites["a.example"] === host)
        #expect(missing.stillServedWhileMissing.contains("a.example"))

        let gone = try Self.poll(fileSystem, after: missing)
        #expect(gone.snapshot.sites.isEmpty)
    }

    @Test func aSignalTakesTheDirectoryAsItIs() throws {
        let fileSystem = FakeFileSystem()
        fileSystem.write(Self.file, SampleFile.aasa())
        let first = try LoaderSeamTests.load(fileSystem)
        fileSystem.remove(Self.file)
        let signal = try LoaderSeamTests.load(fileSystem, previous: first.snapshot, force: true)
        #expect(signal.snapshot.sites.isEmpty)
        #expect(signal.stillServedWhileMissing.isEmpty)
    }

    /// The whole server, polled through the reloader: a request during the
    /// instant the file is missing still gets it.
    @Test(.timeLimit(.minutes(1))) func theOriginKeepsAnsweringWhileAFileIsReplaced() async throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.a.app"), host: "a.example")
        try await RunningOrigin.with(site.configuration()) { origin in
            let reloader = origin.origin.reloader
            try site.remove("a.example/apple-app-site-association")
            await reloader.reload(.poll)
            var response = try #require(try await origin.client.exchange(get("a.example")).first)
            #expect(response.status == 200)
            #expect(response.bodyText.contains("com.a.app"))

            try site.write(SampleFile.aasa(app: "ABCDE12345.com.b.app"), host: "a.example")
            await reloader.reload(.poll)
            response = try #require(try await origin.client.exchange(get("a.example")).first)
            #expect(response.bodyText.contains("com.b.app"))

            try site.remove("a.example/apple-app-site-association")
            await reloader.reload(.poll)
            await reloader.reload(.poll)
            response = try #require(try await origin.client.exchange(get("a.example")).first)
            #expect(response.status == 404)
        }
    }
}
