import AASAKit
import Foundation
import Testing

@testable import AASAServer

/// The loader through its file-system seam: races, swaps, unreadable
/// directories and torn writes staged at an exact point of a load.
@Suite("Loader through the file-system seam")
struct LoaderSeamTests {
    static let file = "a.example/apple-app-site-association"

    static func loader(_ fileSystem: FakeFileSystem, hosts: ServerConfiguration.Hosts = .init()) -> SiteLoader {
        SiteLoader(
            configuration: ServerConfiguration(files: .init(directory: fileSystem.rootPath), hosts: hosts),
            fileSystem: fileSystem
        )
    }

    static func load(
        _ fileSystem: FakeFileSystem,
        previous: SiteSnapshot = .empty,
        force: Bool = true
    ) throws -> LoadOutcome {
        try loader(fileSystem).load(previous: previous, force: force)
    }

    static func leavesTheDirectory(_ issue: LoadIssue?) -> Bool {
        guard case .unreadable(.leavesServedDirectory) = issue?.code else { return false }
        return true
    }

    @Test func directorySwappedForAnOutsideSymlinkBetweenLookAndOpenIsRefused() throws {
        let fileSystem = FakeFileSystem()
        fileSystem.write(Self.file, SampleFile.aasa())
        var swapped = false
        fileSystem.onEvent { event in
            guard event == .openDirectory("a.example"), !swapped else { return }
            swapped = true
            fileSystem.rename("a.example", to: ".parked")
            fileSystem.symlink("a.example", to: "/etc")
        }
        let outcome = try Self.load(fileSystem)
        #expect(swapped)
        #expect(outcome.snapshot.sites.isEmpty)
        #expect(outcome.issues.count == 1)
        #expect(outcome.issues.first?.code == .unreadable(.leavesServedDirectory(destination: "/etc")))
        #expect(
            outcome.issues.first?.description == "a.example: symlink to /etc leaves the served directory; not served"
        )
        #expect(!fileSystem.recordedEvents.contains { if case .openFile = $0 { true } else { false } })
    }

    @Test func fileSwappedForASymlinkBetweenLookAndOpenKeepsThePreviousVersion() throws {
        let fileSystem = FakeFileSystem()
        fileSystem.write(Self.file, SampleFile.aasa())
        let first = try Self.load(fileSystem)
        let served = try #require(first.snapshot.sites["a.example"]?.appleAppSiteAssociation)
        fileSystem.write(Self.file, SampleFile.aasa(app: "ABCDE12345.com.changed.app"))
        var swapped = false
        fileSystem.onEvent { event in
            guard event == .openFile(Self.file), !swapped else { return }
            swapped = true
            fileSystem.symlink(Self.file, to: "../../secret")
        }
        let second = try Self.load(fileSystem, previous: first.snapshot, force: false)
        #expect(second.snapshot.sites["a.example"]?.appleAppSiteAssociation === served)
        #expect(Self.leavesTheDirectory(second.issues.first))
        #expect(second.issues.first?.message.hasSuffix("the previous version stays served") == true)
    }

    /// A ConfigMap mounted as one host directory: each file is a link into
    /// `..data`, itself a link to the current timestamped directory.
    @Test func configMapMountedAsAHostDirectoryIsServed() throws {
        let fileSystem = FakeFileSystem()
        fileSystem.write("brand.example/..2026_11_22_04_00_00.1/apple-app-site-association", SampleFile.aasa())
        fileSystem.symlink("brand.example/..data", to: "..2026_11_22_04_00_00.1")
        fileSystem.symlink("brand.example/apple-app-site-association", to: "..data/apple-app-site-association")
        let outcome = try Self.load(fileSystem)
        #expect(outcome.issues.isEmpty)
        #expect(
            outcome.snapshot.sites["brand.example"]?.appleAppSiteAssociation?.path
                == "brand.example/apple-app-site-association"
        )
    }

    @Test func absoluteSymlinkIntoTheDirectoryIsAnAlias() throws {
        let fileSystem = FakeFileSystem()
        fileSystem.write(Self.file, SampleFile.aasa())
        fileSystem.symlink("b.example", to: fileSystem.rootPath + "/a.example")
        let outcome = try Self.load(fileSystem)
        #expect(outcome.issues.isEmpty)
        #expect(outcome.snapshot.sites["b.example"] === outcome.snapshot.sites["a.example"])
    }

    @Test(arguments: ["../elsewhere", "a.example/../../elsewhere", "/srv/aasa-other/x", "/srv/aasa/../etc"])
    func symlinkClimbingOutIsRefused(destination: String) throws {
        let fileSystem = FakeFileSystem()
        fileSystem.write(Self.file, SampleFile.aasa())
        fileSystem.symlink("x.example", to: destination)
        let outcome = try Self.load(fileSystem)
        #expect(outcome.snapshot.sites["x.example"] == nil)
        #expect(Self.leavesTheDirectory(outcome.issues.first), "\(outcome.issues)")
    }

    @Test func unsearchableHostDirectoryIsOneIssue() throws {
        let fileSystem = FakeFileSystem()
        fileSystem.write(Self.file, SampleFile.aasa())
        fileSystem.write("b.example/apple-app-site-association", SampleFile.aasa())
        fileSystem.setPermissions("a.example", searchable: false)
        let outcome = try Self.load(fileSystem)
        #expect(Set(outcome.snapshot.sites.keys) == ["b.example"])
        #expect(
            outcome.issues.map(\.description) == [
                "a.example: cannot read the host directory: Permission denied; not served"
            ]
        )
        #expect(outcome.issues.first?.code == .unreadable(.permissionDenied))
    }

    @Test func hostDirectoryTurningUnreadableKeepsItsLastGoodFile() throws {
        let fileSystem = FakeFileSystem()
        fileSystem.write(Self.file, SampleFile.aasa())
        let first = try Self.load(fileSystem)
        let served = try #require(first.snapshot.sites["a.example"]?.appleAppSiteAssociation)
        fileSystem.setPermissions("a.example", readable: false, searchable: false)
        let second = try Self.load(fileSystem, previous: first.snapshot)
        #expect(second.snapshot.sites["a.example"]?.appleAppSiteAssociation === served)
        #expect(
            second.issues.map(\.description) == [
                "a.example: cannot read the host directory: Permission denied; the previous version stays served"
            ]
        )
    }

    @Test func unreadableServedDirectoryThrowsAndKeepsEverything() throws {
        let fileSystem = FakeFileSystem()
        fileSystem.write(Self.file, SampleFile.aasa())
        fileSystem.setPermissions(nil, readable: false)
        let error = #expect(throws: FileSystemError.self) { try Self.load(fileSystem) }
        #expect(error?.code == .permissionDenied)
    }

    @Test func fileRewrittenInPlaceDuringTheReadIsReadAgainWhole() throws {
        let fileSystem = FakeFileSystem()
        fileSystem.write(Self.file, SampleFile.aasa(app: "ABCDE12345.com.one.app"))
        var rewrites = 0
        fileSystem.onEvent { event in
            guard event == .read(Self.file), rewrites == 0 else { return }
            rewrites += 1
            fileSystem.write(Self.file, SampleFile.aasa(app: "ABCDE12345.com.two.app"))
        }
        let outcome = try Self.load(fileSystem)
        #expect(rewrites == 1)
        #expect(outcome.snapshot.sites["a.example"]?.appleAppSiteAssociation?.appIDs == ["ABCDE12345.com.two.app"])
        #expect(fileSystem.recordedEvents.filter { $0 == .read(Self.file) }.count == 2)
    }

    @Test func fileThatKeepsChangingIsAnIssueAndIsReadAgainNextTime() throws {
        let fileSystem = FakeFileSystem()
        fileSystem.write(Self.file, SampleFile.aasa(app: "ABCDE12345.com.first.app"))
        let first = try Self.load(fileSystem)
        fileSystem.write(Self.file, SampleFile.aasa(app: "ABCDE12345.com.v0.app"))
        var rewrites = 0
        fileSystem.onEvent { event in
            guard event == .read(Self.file), rewrites < FileReader.readAttempts else { return }
            rewrites += 1
            fileSystem.write(Self.file, SampleFile.aasa(app: "ABCDE12345.com.v\(rewrites).app"))
        }
        let second = try Self.load(fileSystem, previous: first.snapshot, force: false)
        #expect(second.issues.first?.code == .unreadable(.changedWhileReading(attempts: 3)))
        #expect(
            second.issues.first?.description
                == "\(Self.file): the file changed while it was being read (3 attempts); it is read again on the next load; the previous version stays served"
        )
        #expect(second.snapshot.sites["a.example"]?.appleAppSiteAssociation?.appIDs == ["ABCDE12345.com.first.app"])
        // Not remembered as a rejection: the next poll reads the settled file.
        let third = try Self.load(fileSystem, previous: second.snapshot, force: false)
        #expect(third.issues.isEmpty)
        #expect(third.snapshot.sites["a.example"]?.appleAppSiteAssociation?.appIDs == ["ABCDE12345.com.v3.app"])
    }

    /// The server once read the first 131,073 bytes and reported that as
    /// the size; the stamp tells the real one, and nothing is read at all.
    @Test func oversizeFileIsNotReadAndIsReportedWithItsRealSize() throws {
        let fileSystem = FakeFileSystem()
        fileSystem.write(Self.file, [UInt8](repeating: 0x20, count: 257_750))
        let outcome = try Self.load(fileSystem)
        let issue = try #require(outcome.issues.first)
        #expect(issue.code == .invalidFile(diagnostic: "file.too-large"))
        #expect(issue.message.hasPrefix("(root): the file is 257,750 bytes; the system accepts at most 131,072 bytes"))
        #expect(!fileSystem.recordedEvents.contains(.read(Self.file)))
    }

    /// A directory name cannot forge a log line or field: bytes outside
    /// printable ASCII and spaces are shown as `\xHH`.
    @Test func aHostileDirectoryNameIsShownEscaped() throws {
        let fileSystem = FakeFileSystem()
        fileSystem.write("x\nhttp.status=200 \u{1B}[31m/apple-app-site-association", SampleFile.aasa())
        let outcome = try Self.load(fileSystem)
        #expect(outcome.issues.map(\.path) == [#"x\x0Ahttp.status=200\x20\x1B[31m"#])
        #expect(outcome.issues.first?.code == .notAHostDirectory)
    }

    @Test func aPollDoesNotOpenAnUnchangedFile() throws {
        let fileSystem = FakeFileSystem()
        fileSystem.write(Self.file, SampleFile.aasa())
        let first = try Self.load(fileSystem)
        let before = fileSystem.recordedEvents.count
        let poll = try Self.load(fileSystem, previous: first.snapshot, force: false)
        #expect(poll.snapshot === first.snapshot)
        #expect(!fileSystem.recordedEvents.dropFirst(before).contains(.openFile(Self.file)))
    }
}
