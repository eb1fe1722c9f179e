import AASAKit
import Foundation

/// An immutable view of everything served: built off to the side by the
/// loader, swapped in whole, read by every request. A request sees one
/// snapshot from start to end, never a mix of two loads.
public final class SiteSnapshot: Sendable {
    /// Every served name (directories, aliases, `*.` wildcards) to its host;
    /// the next load looks previous files up here.
    public let sites: [String: SiteHost]
    /// Hosts by exact name (directories, symlinked aliases, configured aliases).
    let exact: [String: SiteHost]
    /// Wildcard entries by the suffix after `*.`: `brand.example` for `*.brand.example`.
    let wildcards: [String: SiteHost]
    /// Staging names derived from the exact names (`hosts.staging`).
    let staging: StagingNames
    /// Served for unknown hosts when `hosts.default` is configured.
    let fallback: SiteHost?
    /// The certificate for connections whose SNI names no host with its own.
    let defaultIdentity: LoadedIdentity?
    /// Files rejected by the load that built this snapshot, by path: the next
    /// poll skips them while their stamp is unchanged.
    let rejected: [String: RejectedFile]
    /// Files (`host/file`) and hosts missing from the directory at this load
    /// but still served: the next load drops them if they are still missing.
    let missing: Set<String>
    /// When the snapshot was built.
    public let loadedAt: Date
    /// Which load produced it (1 for the first).
    public let generation: Int

    init(
        sites: [String: SiteHost],
        exact: [String: SiteHost],
        wildcards: [String: SiteHost],
        staging: StagingNames = .none,
        fallback: SiteHost?,
        defaultIdentity: LoadedIdentity?,
        rejected: [String: RejectedFile] = [:],
        missing: Set<String> = [],
        loadedAt: Date,
        generation: Int
    ) {
        self.rejected = rejected
        self.missing = missing
        self.defaultIdentity = defaultIdentity
        self.sites = sites
        self.exact = exact
        self.wildcards = wildcards
        self.staging = staging
        self.fallback = fallback
        self.loadedAt = loadedAt
        self.generation = generation
    }

    /// The empty snapshot the server starts with before the first load.
    static let empty = SiteSnapshot(
        sites: [:],
        exact: [:],
        wildcards: [:],
        fallback: nil,
        defaultIdentity: nil,
        loadedAt: .distantPast,
        generation: 0
    )

    /// The host serving `name`: the exact name, else the most specific
    /// wildcard, else a staging name, else the configured default.
    @inline(__always)
    func host(for name: HostName) -> SiteHost? {
        if let host = exact[name.value] { return host }
        return wildcardHost(for: name) ?? stagingHost(for: name) ?? fallback
    }

    private func stagingHost(for name: HostName) -> SiteHost? {
        staging.rules.isEmpty ? nil : staging.host(for: name, in: exact)
    }

    /// The certificate for a TLS server name: the host's own (exact or
    /// wildcard) when it names the server name, else the default. (An alias
    /// or a staging name shares its target's files, but the target's
    /// certificate names the target: a client would reject it.)
    func identity(forServerName serverName: String?) -> TLSIdentity? {
        if let serverName, let name = HostName(authority: serverName) {
            let host = exact[name.value] ?? wildcardHost(for: name) ?? stagingHost(for: name)
            if let identity = host?.tls?.identity,
                identity.names.contains(where: { TLSIdentity.name($0, covers: name.value) })
            {
                return identity
            }
        }
        return defaultIdentity?.identity
    }

    /// Whether `serverName` is a name this snapshot serves (for the log
    /// line of a handshake refused for want of a certificate).
    func serves(serverName: String) -> Bool {
        guard let name = HostName(authority: serverName) else { return false }
        return exact[name.value] != nil || wildcardHost(for: name) != nil || stagingHost(for: name) != nil
    }

    /// Whether a host (`brand.example`) or one of its files
    /// (`brand.example/assetlinks.json`) is served.
    func serves(path: String) -> Bool {
        let parts = path.split(separator: "/", maxSplits: 1).map(String.init)
        guard let name = parts.first, let host = sites[name] else { return false }
        guard parts.count == 2 else { return true }
        return SiteFile(fileName: parts[1]).map { host.file($0) != nil } ?? false
    }

    private func wildcardHost(for name: HostName) -> SiteHost? {
        guard !wildcards.isEmpty else { return nil }
        var candidate = name.parent
        while let suffix = candidate {
            if let host = wildcards[String(suffix)] { return host }
            guard let dot = suffix.firstIndex(of: ".") else { return nil }
            let rest = suffix[suffix.index(after: dot)...]
            candidate = rest.contains(".") ? rest : nil
        }
        return nil
    }
}
