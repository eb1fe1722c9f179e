import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A certificate chain and its private key, checked when loaded: parseable,
/// currently valid, the key matching the leaf, and (for a host's own
/// certificate) naming that host. A bad one is reported like a bad file and
/// the previous identity stays in use.
public struct TLSIdentity: Sendable {
    public let chain: [NIOSSLCertificate]
    public let key: NIOSSLPrivateKey
    public let notValidAfter: Date
    /// DNS names of the leaf's subject alternative names.
    public let names: [String]

    /// Why a certificate cannot be used.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Loads `certificatePath` (PEM chain, leaf first) and `keyPath` (PEM key).
    /// With `host`, the leaf must cover that name.
    public init(certificatePath: String, keyPath: String, host: String? = nil, now: Date = Date()) throws(Problem) {
        let certificatePEM: String
        let keyPEM: String
        do {
            certificatePEM = try String(contentsOfFile: certificatePath, encoding: .utf8)
            keyPEM = try String(contentsOfFile: keyPath, encoding: .utf8)
        } catch {
            throw Problem(description: "cannot read: \(error.localizedDescription)")
        }
        try self.init(certificatePEM: certificatePEM, keyPEM: keyPEM, host: host, now: now)
    }

    public init(certificatePEM: String, keyPEM: String, host: String? = nil, now: Date = Date()) throws(Problem) {
        let leaf: Certificate
        let privateKey: Certificate.PrivateKey
        do {
            let documents = try PEMDocument.parseMultiple(pemString: certificatePEM)
            guard let first = documents.first else { throw Problem(description: "no certificate in the PEM file") }
            leaf = try Certificate(pemDocument: first)
            privateKey = try Certificate.PrivateKey(pemEncoded: keyPEM)
            chain = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8))
            key = try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(description: "not a PEM certificate and key: \(error)")
        }
        guard privateKey.publicKey == leaf.publicKey else {
            throw Problem(description: "the private key does not belong to the certificate")
        }
        guard leaf.notValidAfter > now else {
            throw Problem(description: "the certificate expired on \(leaf.notValidAfter.formatted(.iso8601))")
        }
        guard leaf.notValidBefore <= now else {
            throw Problem(description: "the certificate is not valid before \(leaf.notValidBefore.formatted(.iso8601))")
        }
        let names =
            (try? leaf.extensions.subjectAlternativeNames)??.compactMap { name -> String? in
                if case .dnsName(let dns) = name { return dns.lowercased() }
                return nil
            } ?? []
        if let host, !names.contains(where: { Self.name($0, covers: host) }) {
            throw Problem(description: "the certificate names \(names.joined(separator: ", ")), not \(host)")
        }
        self.notValidAfter = leaf.notValidAfter
        self.names = names
    }

    /// RFC 6125 matching: exact, or a `*.` wildcard covering one label.
    static func name(_ pattern: String, covers host: String) -> Bool {
        if pattern == host { return true }
        guard pattern.hasPrefix("*."), let dot = host.firstIndex(of: ".") else { return false }
        return host[host.index(after: dot)...] == pattern.dropFirst(2)
    }
}

/// A ``TLSIdentity`` with the stamps of the files it came from, so a poll
/// reuses it while neither file changed.
public struct LoadedIdentity: Sendable {
    public let identity: TLSIdentity
    let certificateStamp: FileStamp
    let keyStamp: FileStamp
}
