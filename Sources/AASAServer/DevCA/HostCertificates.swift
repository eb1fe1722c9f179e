import AASAKit
import Foundation
import SwiftASN1
import X509

/// Leaf certificates from the development CA, written where `aasa serve`
/// picks them up by SNI: `<dir>/<host>/tls/cert.pem` and `key.pem`. Each
/// host directory gets its own leaf, naming the host and every symlinked
/// alias of it (an alias shares its target's certificate).
public struct HostCertificates: Sendable {
    public let authority: DevCertificateAuthority
    /// The served directory.
    public let directory: String
    public var days: Int
    public var now: Date

    public init(
        authority: DevCertificateAuthority,
        directory: String,
        days: Int = DevCertificate.defaultValidityDays,
        now: Date = Date()
    ) {
        self.authority = authority
        self.directory = directory
        self.days = days
        self.now = now
    }

    /// What was done for one host.
    public struct Outcome: Sendable, Equatable {
        public enum Action: Sendable, Equatable {
            /// A new leaf was written (none before, or renewed).
            case issued
            /// The existing leaf is ours, names every name and is not expiring.
            case kept
            /// The existing certificate is someone else's; left alone.
            case foreign(issuer: String)
        }

        /// The names the certificate covers, the host first.
        public let names: [String]
        public let certificatePath: String
        public let action: Action
        public let notValidAfter: Date?
    }

    /// Issues a fresh leaf for each named host (renewing what is there).
    /// A certificate this CA did not issue is replaced only with `force`.
    public func renew(_ hostNames: [String], force: Bool) throws(DevCAError) -> [Outcome] {
        let hosts = SiteDirectoryHost.scan(directory)
        var outcomes: [Outcome] = []
        for name in hostNames {
            guard let host = hosts.first(where: { $0.name == name }) else {
                let directoryPath = directory + "/" + name
                if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: directoryPath) {
                    throw .aliasHost(host: name, target: target)
                }
                let suggestion = Suggestion.closest(to: name, in: hosts.map(\.name))
                throw .noHostDirectory(host: name, directory: directory, suggestion: suggestion)
            }
            outcomes.append(try replace(names: host.names, in: tlsDirectory(host), force: force))
        }
        return outcomes
    }

    /// One certificate naming all `names`, into `directory` (`--out`).
    public func writeCombined(names: [String], to directory: String, force: Bool) throws(DevCAError) -> Outcome {
        try replace(names: names, in: directory, force: force)
    }

    private func replace(names: [String], in directory: String, force: Bool) throws(DevCAError) -> Outcome {
        let path = directory + "/" + SiteLayout.certificateFileName
        if !force, case .foreign(let issuer) = existing(path).state {
            throw .foreignCertificate(path: path, issuer: issuer)
        }
        return try write(names: names, in: directory)
    }

    /// For every host in the directory: a leaf where there is none, or ours
    /// is expiring within `renewWithin` or misses a name; a certificate from
    /// elsewhere is kept.
    public func ensureAll(renewWithin: TimeInterval = 30 * 86_400) throws(DevCAError) -> [Outcome] {
        var outcomes: [Outcome] = []
        for host in SiteDirectoryHost.scan(directory) {
            let directory = tlsDirectory(host)
            let path = directory + "/" + SiteLayout.certificateFileName
            let current = existing(path)
            switch current.state {
            case .foreign(let issuer):
                let action = Outcome.Action.foreign(issuer: issuer)
                outcomes.append(
                    Outcome(
                        names: host.names,
                        certificatePath: path,
                        action: action,
                        notValidAfter: current.notValidAfter
                    )
                )
            case .ours(let leaf)
            where leaf.notValidAfter > now.addingTimeInterval(renewWithin)
                && Set(host.names).isSubset(of: Self.dnsNames(of: leaf))
                && FileManager.default.fileExists(atPath: directory + "/" + SiteLayout.keyFileName):
                outcomes.append(
                    Outcome(names: host.names, certificatePath: path, action: .kept, notValidAfter: leaf.notValidAfter)
                )
            case .ours, .none:
                outcomes.append(try write(names: host.names, in: directory))
            }
        }
        return outcomes
    }

    private enum State {
        case none
        case ours(Certificate)
        case foreign(issuer: String)
    }

    private func existing(_ path: String) -> (state: State, notValidAfter: Date?) {
        guard FileManager.default.fileExists(atPath: path) else { return (.none, nil) }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let first = try? PEMDocument.parseMultiple(pemString: text).first,
            let leaf = try? Certificate(pemDocument: first)
        else { return (.foreign(issuer: "an unreadable certificate"), nil) }
        let state: State = authority.issued(leaf) ? .ours(leaf) : .foreign(issuer: "\(leaf.issuer)")
        return (state, leaf.notValidAfter)
    }

    private func write(names: [String], in directory: String) throws(DevCAError) -> Outcome {
        let leaf: DevCertificate
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            leaf = try authority.issue(names: names, days: days, now: now)
        } catch {
            throw .cannotWrite(path: directory, reason: "\(error)")
        }
        let certificatePath = directory + "/" + SiteLayout.certificateFileName
        // The key first: the server's poll may pair the new key with the old
        // certificate for an instant (a mismatch it reports and rides out by
        // keeping the previous pair), never serve a certificate without its key.
        for (path, text, permissions) in [
            (directory + "/" + SiteLayout.keyFileName, leaf.keyPEM, PrivateFile.ownerOnly),
            (certificatePath, leaf.certificatePEM, PrivateFile.readable),
        ] {
            do {
                try PrivateFile.write(Array(text.utf8), to: path, permissions: permissions)
            } catch {
                throw .cannotWrite(path: path, reason: error.description)
            }
        }
        return Outcome(
            names: names,
            certificatePath: certificatePath,
            action: .issued,
            notValidAfter: leaf.notValidAfter
        )
    }

    private func tlsDirectory(_ host: SiteDirectoryHost) -> String {
        directory + "/" + host.name + "/" + SiteLayout.tlsDirectoryName
    }

    static func dnsNames(of certificate: Certificate) -> Set<String> {
        let names = (try? certificate.extensions.subjectAlternativeNames) ?? nil
        return Set(
            names?.compactMap { name -> String? in
                if case .dnsName(let dns) = name { return dns.lowercased() }
                return nil
            } ?? []
        )
    }
}
