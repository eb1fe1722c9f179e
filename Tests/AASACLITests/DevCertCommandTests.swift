import AASAServer
import ArgumentParser
import Foundation
import SwiftASN1
import Testing
import X509

@testable import aasa

/// `aasa dev-cert`: one development CA, kept; a leaf per host from it.
@Suite("aasa dev-cert")
struct DevCertCommandTests {
    /// A served directory with hosts `a.example` (aliased by the symlink
    /// `www.a.example`), `b.example` and `*.c.example`, and a CA directory.
    final class Workspace: @unchecked Sendable {
        // @unchecked: immutable paths; the files belong to the test using them.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-devcert-\(UUID())").path
        var served: String { root + "/aasa" }
        var ca: String { root + "/ca" }

        init() throws {
            for host in ["a.example", "b.example", "*.c.example"] {
                try FileManager.default.createDirectory(atPath: served + "/" + host, withIntermediateDirectories: true)
            }
            try FileManager.default.createSymbolicLink(
                atPath: served + "/www.a.example",
                withDestinationPath: "a.example"
            )
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func run(_ arguments: [String]) async throws {
            try await DevCertCommand.parse(arguments + ["--dir", served, "--ca-dir", ca]).run()
        }

        func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

        func leaf(_ host: String) throws -> Certificate {
            try Certificate(pemEncoded: text(served + "/" + host + "/tls/cert.pem"))
        }

        func authority() throws -> DevCertificateAuthority {
            try DevCertificateAuthority(certificatePEM: text(ca + "/ca.pem"), keyPEM: text(ca + "/ca-key.pem"))
        }

        func mode(_ path: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
    }

    @Test func issuesALeafPerHostFromOneCAWithWhatIOSRequires() async throws {
        let workspace = try Workspace()
        try await workspace.run(["a.example", "b.example", "*.c.example"])
        let authority = try workspace.authority()
        let ca = authority.certificate
        #expect(try ca.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        #expect(try ca.extensions.keyUsage?.keyCertSign == true)
        #expect(ca.extensions.first { $0.oid == .X509ExtensionID.basicConstraints }?.critical == true)

        let expected = [
            "a.example": ["a.example", "www.a.example"], "b.example": ["b.example"], "*.c.example": ["*.c.example"],
        ]
        for (host, names) in expected {
            let leaf = try workspace.leaf(host)
            #expect(authority.issued(leaf), "\(host) is signed by the CA")
            #expect(try leaf.extensions.subjectAlternativeNames == SubjectAlternativeNames(names.map { .dnsName($0) }))
            #expect(try leaf.extensions.basicConstraints == .notCertificateAuthority)
            #expect(try leaf.extensions.extendedKeyUsage?.contains(.serverAuth) == true)
            #expect(try leaf.extensions.keyUsage?.digitalSignature == true)
            #expect(try leaf.extensions.keyUsage?.keyCertSign == false)
            #expect(leaf.notValidAfter.timeIntervalSince(leaf.notValidBefore) <= 825 * 86_400)
            // The server's own loader accepts it for the host.
            _ = try TLSIdentity(
                certificatePath: workspace.served + "/" + host + "/tls/cert.pem",
                keyPath: workspace.served + "/" + host + "/tls/key.pem",
                host: host
            )
        }
    }

    @Test func rerunningRenewsTheLeavesAndKeepsTheCA() async throws {
        let workspace = try Workspace()
        try await workspace.run(["a.example"])
        let caPEM = try workspace.text(workspace.ca + "/ca.pem")
        let first = try workspace.leaf("a.example")
        try await workspace.run(["a.example"])
        #expect(try workspace.text(workspace.ca + "/ca.pem") == caPEM)
        let second = try workspace.leaf("a.example")
        #expect(second.serialNumber != first.serialNumber)
        #expect(try workspace.authority().issued(second))
    }

    @Test func keysAreOwnerOnlyAndTheCADirectoryPrivate() async throws {
        let workspace = try Workspace()
        // A key left world-readable by an older tool is replaced, not rewritten in place.
        let tls = workspace.served + "/b.example/tls"
        try FileManager.default.createDirectory(atPath: tls, withIntermediateDirectories: true)
        FileManager.default.createFile(
            atPath: tls + "/key.pem",
            contents: Data(),
            attributes: [.posixPermissions: 0o644]
        )
        try await workspace.run(["a.example", "b.example"])
        #expect(try workspace.mode(workspace.ca + "/ca-key.pem") == 0o600)
        #expect(try workspace.mode(workspace.ca) == 0o700)
        #expect(try workspace.mode(workspace.served + "/a.example/tls/key.pem") == 0o600)
        #expect(try workspace.mode(tls + "/key.pem") == 0o600)
        #expect(try workspace.mode(workspace.served + "/a.example/tls/cert.pem") & 0o077 != 0o066)
    }

    @Test func aKeyIsNeverWrittenThroughASymlink() async throws {
        let workspace = try Workspace()
        let elsewhere = workspace.root + "/elsewhere.pem"
        try Data("untouched".utf8).write(to: URL(fileURLWithPath: elsewhere))
        let tls = workspace.served + "/a.example/tls"
        try FileManager.default.createDirectory(atPath: tls, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: tls + "/key.pem", withDestinationPath: elsewhere)
        try await workspace.run(["a.example"])
        #expect(try workspace.text(elsewhere) == "untouched")
        #expect(throws: (any Error).self, "key.pem is a file now, not the symlink") {
            try FileManager.default.destinationOfSymbolicLink(atPath: tls + "/key.pem")
        }
    }

    @Test func everyPEMEndsWithANewline() async throws {
        let workspace = try Workspace()
        try await workspace.run(["a.example"])
        for path in [workspace.ca + "/ca.pem", workspace.ca + "/ca-key.pem"]
            + ["cert.pem", "key.pem"].map({ workspace.served + "/a.example/tls/" + $0 })
        {
            #expect(try workspace.text(path).hasSuffix("-----\n"), "\(path)")
        }
    }

    @Test func theProfileIsAPropertyListWithTheCAInARootPayload() async throws {
        let workspace = try Workspace()
        try await workspace.run(["a.example"])
        let data = try Data(contentsOf: URL(fileURLWithPath: workspace.ca + "/aasa-dev-ca.mobileconfig"))
        let profile = try #require(
            try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        )
        #expect(profile["PayloadType"] as? String == "Configuration")
        #expect(profile["PayloadVersion"] as? Int == 1)
        let payloads = try #require(profile["PayloadContent"] as? [[String: Any]])
        #expect(payloads.count == 1)
        #expect(payloads.first?["PayloadType"] as? String == "com.apple.security.root")
        #expect(try payloads.first?["PayloadContent"] as? Data == workspace.authority().certificateDER)
        for key in ["PayloadIdentifier", "PayloadUUID", "PayloadDisplayName"] {
            #expect(profile[key] is String && payloads.first?[key] is String, "\(key)")
        }
        #expect(UUID(uuidString: profile["PayloadUUID"] as? String ?? "") != nil)
    }

    @Test func refusesACertificateFromAnotherIssuerWithoutForce() async throws {
        let workspace = try Workspace()
        let tls = workspace.served + "/a.example/tls"
        try FileManager.default.createDirectory(atPath: tls, withIntermediateDirectories: true)
        let foreign = try DevCertificateAuthority(commonName: "Corp CA").issue(names: ["a.example"])
        try foreign.certificatePEM.write(toFile: tls + "/cert.pem", atomically: true, encoding: .utf8)
        await #expect {
            try await workspace.run(["a.example"])
        } throws: {
            ($0 as? ExitCode)?.rawValue == 2
        }
        #expect(try workspace.text(tls + "/cert.pem") == foreign.certificatePEM)
        try await workspace.run(["a.example", "--force"])
        #expect(try workspace.authority().issued(workspace.leaf("a.example")))
    }

    @Test func hostsMustBeDirectoriesAndNotAliases() throws {
        let workspace = try Workspace()
        let certificates = HostCertificates(authority: try DevCertificateAuthority(), directory: workspace.served)
        #expect(
            throws: DevCAError.noHostDirectory(host: "a.exmple", directory: workspace.served, suggestion: "a.example")
        ) {
            try certificates.renew(["a.exmple"], force: false)
        }
        #expect(throws: DevCAError.aliasHost(host: "www.a.example", target: "a.example")) {
            try certificates.renew(["www.a.example"], force: false)
        }
    }

    @Test func theCADirectoryMayNotBeInsideTheServedDirectory() throws {
        let workspace = try Workspace()
        let inside = DevCADirectory(path: workspace.served + "/.ca")
        #expect(throws: DevCAError.insideServedDirectory(caDirectory: inside.path, servedDirectory: workspace.served)) {
            try inside.ensureOutside(servedDirectory: workspace.served)
        }
        try DevCADirectory(path: workspace.served + "-ca").ensureOutside(servedDirectory: workspace.served)
    }

    @Test func aLoneCAKeyIsNeverReplaced() throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.ca, withIntermediateDirectories: true)
        try Data("key".utf8).write(to: URL(fileURLWithPath: workspace.ca + "/ca-key.pem"))
        let directory = DevCADirectory(path: workspace.ca)
        #expect(throws: DevCAError.incomplete(present: directory.keyPath, missing: directory.certificatePath)) {
            try directory.loadOrCreate()
        }
        #expect(try workspace.text(workspace.ca + "/ca-key.pem") == "key")
    }

    @Test(arguments: [["bad host"], ["A.example"], ["a.test", "--days", "0"], ["a.test", "--days", "826"]])
    func rejectsBadArguments(arguments: [String]) {
        #expect(throws: (any Error).self) { try DevCertCommand.parse(arguments) }
    }
}
