import Foundation
import Testing

@testable import AASAServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A poll and a host's `tls/` identity: the files are looked at, not
/// opened, while neither changed; a certificate renewed by any of the ways
/// tools replace files is still picked up by the next poll.
@Suite("Identity polls")
struct IdentityPollTests {
    /// How a renewal puts the new certificate and key in place.
    enum Replacement: String, CaseIterable, Sendable {
        /// A new file renamed over each (certbot's `--deploy-hook` copies, most editors).
        case renameOver
        /// `tls/cert.pem -> v1/cert.pem` becomes `-> v2/cert.pem`, the link swapped by rename.
        case fileLinkSwap
        /// `tls -> tls-v1` becomes `tls -> tls-v2` (a ConfigMap's `..data`).
        case directoryLinkSwap
        /// A Kubernetes Secret volume: `tls/cert.pem -> ..data/cert.pem`,
        /// `tls/key.pem -> ..data/key.pem`, and only `..data -> ..2026_a`
        /// swapped to `..2026_b`.
        case kubernetesSecret
    }

    /// One TLS host whose certificate is valid for `days`.
    private static func site(
        _ ca: DevCertificateAuthority,
        days: Int,
        replacement: Replacement? = nil
    ) throws -> TemporarySite {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(), host: "a.example")
        let certificate = try ca.issue(names: ["a.example"], days: days)
        switch replacement {
        case .fileLinkSwap:
            try TLSTests.write(certificate, to: site.path + "/a.example/tls/v1")
            try site.symlink("a.example/tls/cert.pem", to: "v1/cert.pem")
            try site.symlink("a.example/tls/key.pem", to: "v1/key.pem")
        case .directoryLinkSwap:
            try TLSTests.write(certificate, to: site.path + "/a.example/tls-v1")
            try site.symlink("a.example/tls", to: "tls-v1")
        case .kubernetesSecret:
            try TLSTests.write(certificate, to: site.path + "/a.example/tls/..2026_a")
            try site.symlink("a.example/tls/..data", to: "..2026_a")
            try site.symlink("a.example/tls/cert.pem", to: "..data/cert.pem")
            try site.symlink("a.example/tls/key.pem", to: "..data/key.pem")
        case .renameOver, nil:
            try TLSTests.write(certificate, to: site.path + "/a.example/tls")
        }
        return site
    }

    /// `name` made anew beside `path` (a file with `contents`, or a link
    /// to `destination`), then renamed over it: no moment without one.
    private static func replace(_ path: String, contents: String? = nil, linkTo destination: String? = nil) throws {
        let sibling = path + ".new"
        if let contents {
            try Data(contents.utf8).write(to: URL(fileURLWithPath: sibling))
        } else if let destination {
            try FileManager.default.createSymbolicLink(atPath: sibling, withDestinationPath: destination)
        }
        guard rename(sibling, path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    @Test func pollsLookAtUnchangedIdentityFilesWithoutOpeningThem() throws {
        let site = try Self.site(try DevCertificateAuthority(), days: 30)
        let fileSystem = CountingFileSystem()
        let loader = SiteLoader(configuration: site.configuration(), fileSystem: fileSystem)
        var snapshot = try loader.load(previous: .empty, force: false).snapshot
        let first = try #require(snapshot.sites["a.example"]?.tls)
        fileSystem.reset()
        for _ in 0..<3 {
            let poll = try loader.load(previous: snapshot, force: false)
            #expect(poll.issues.isEmpty)
            snapshot = poll.snapshot
        }
        #expect(fileSystem.opens(of: "cert.pem") == 0)
        #expect(fileSystem.opens(of: "key.pem") == 0)
        #expect(fileSystem.lookups(of: "cert.pem") == 3)
        #expect(fileSystem.lookups(of: "key.pem") == 3)
        #expect(snapshot.sites["a.example"]?.tls?.identity.chain == first.identity.chain)
        // SIGHUP parses them again whatever their stamps.
        _ = try loader.load(previous: snapshot, force: true)
        #expect(fileSystem.opens(of: "cert.pem") == 1)
        #expect(fileSystem.opens(of: "key.pem") == 1)
    }

    @Test(arguments: Replacement.allCases)
    func aRenewedCertificateIsPickedUpByTheNextPoll(_ replacement: Replacement) throws {
        let ca = try DevCertificateAuthority()
        let site = try Self.site(ca, days: 30, replacement: replacement)
        let loader = SiteLoader(configuration: site.configuration(), fileSystem: CountingFileSystem())
        let first = try loader.load(previous: .empty, force: false)
        let old = try #require(first.snapshot.sites["a.example"]?.tls?.identity.notValidAfter)

        let renewed = try ca.issue(names: ["a.example"], days: 60)
        let tls = site.path + "/a.example/tls"
        switch replacement {
        case .renameOver:
            try Self.replace(tls + "/cert.pem", contents: renewed.certificatePEM)
            try Self.replace(tls + "/key.pem", contents: renewed.keyPEM)
        case .fileLinkSwap:
            try TLSTests.write(renewed, to: tls + "/v2")
            try Self.replace(tls + "/cert.pem", linkTo: "v2/cert.pem")
            try Self.replace(tls + "/key.pem", linkTo: "v2/key.pem")
        case .directoryLinkSwap:
            try TLSTests.write(renewed, to: site.path + "/a.example/tls-v2")
            try Self.replace(tls, linkTo: "tls-v2")
        case .kubernetesSecret:
            try TLSTests.write(renewed, to: tls + "/..2026_b")
            try Self.replace(tls + "/..data", linkTo: "..2026_b")
        }
        let poll = try loader.load(previous: first.snapshot, force: false)
        #expect(poll.issues.isEmpty)
        let new = try #require(poll.snapshot.sites["a.example"]?.tls?.identity.notValidAfter)
        #expect(new > old.addingTimeInterval(29 * 86_400))
    }

    /// A renewal written into the same files (`cp new.pem cert.pem`): same
    /// inode, same size, new bytes. The stamp still differs in its change
    /// and modification times, which the kernel sets on every write at its
    /// timestamp granularity; that granularity is the limit (docs/DECISIONS.md),
    /// so the test moves the modification time on as a later write would.
    @Test func aCertificateRewrittenInPlaceWithTheSameSizeIsPickedUp() throws {
        let ca = try DevCertificateAuthority()
        let site = try Self.site(ca, days: 30)
        let loader = SiteLoader(configuration: site.configuration(), fileSystem: CountingFileSystem())
        let first = try loader.load(previous: .empty, force: false)
        let old = try #require(first.snapshot.sites["a.example"]?.tls?.identity.notValidAfter)

        let tls = site.path + "/a.example/tls"
        let oldSize = try #require(
            try FileManager.default.attributesOfItem(atPath: tls + "/cert.pem")[.size] as? Int
        )
        // ECDSA signatures vary by a byte or two: issue until one is as long.
        let renewed = try #require(
            try (0..<200).lazy.map { _ in try ca.issue(names: ["a.example"], days: 60) }
                .first { $0.certificatePEM.utf8.count == oldSize }
        )
        for (name, text) in [("key.pem", renewed.keyPEM), ("cert.pem", renewed.certificatePEM)] {
            let path = tls + "/" + name
            let before = try FileManager.default.attributesOfItem(atPath: path)
            let inode = try #require(before[.systemFileNumber] as? UInt64)
            let modified = try #require(before[.modificationDate] as? Date)
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.write(contentsOf: Data(text.utf8))
            try handle.truncate(atOffset: UInt64(text.utf8.count))
            try handle.close()
            try FileManager.default.setAttributes(
                [.modificationDate: modified.addingTimeInterval(1)],
                ofItemAtPath: path
            )
            let after = try FileManager.default.attributesOfItem(atPath: path)
            #expect(after[.systemFileNumber] as? UInt64 == inode)
            #expect(after[.size] as? Int == text.utf8.count)
        }
        #expect(renewed.certificatePEM.utf8.count == oldSize)

        let poll = try loader.load(previous: first.snapshot, force: false)
        #expect(poll.issues.isEmpty)
        let new = try #require(poll.snapshot.sites["a.example"]?.tls?.identity.notValidAfter)
        #expect(new > old.addingTimeInterval(29 * 86_400))
    }

    /// Unchanged files are not parsed again, but the clock moves: the
    /// reused identity is still held to its expiry.
    @Test func anUnchangedCertificateIsRefusedOnceItExpired() throws {
        let certificate = try DevCertificateAuthority().issue(names: ["a.example"], days: 30)
        let identity = try TLSIdentity(
            certificatePEM: certificate.certificatePEM,
            keyPEM: certificate.keyPEM,
            host: "a.example",
            now: Date()
        )
        let stamp = FileStamp(device: 1, inode: 2, size: 3, modifiedNanoseconds: 4, changedNanoseconds: 5)
        let previous = LoadedIdentity(identity: identity, certificateStamp: stamp, keyStamp: stamp)
        let valid = IdentityLoader(force: false, now: identity.notValidAfter.addingTimeInterval(-1))
        #expect(try valid.reuse(previous, certificate: stamp, key: stamp)?.identity.chain == identity.chain)
        let expired = IdentityLoader(force: false, now: identity.notValidAfter.addingTimeInterval(1))
        #expect(throws: TLSIdentity.Problem.self) { try expired.reuse(previous, certificate: stamp, key: stamp) }
    }
}
