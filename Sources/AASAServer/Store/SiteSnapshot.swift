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
    /// wildcard, else the configured default.
    @inline(__always)
    func host(for name: HostName) -> SiteHost? {
        if let host = exact[name.value] { return host }
        return wildcardHost(for: name) ?? fallback
    }

    /// The certificate for a TLS server name: the host's own (exact or
    /// wildcard), else the default.
    func identity(forServerName serverName: String?) -> TLSIdentity? {
        if let serverName, let name = HostName(authority: serverName) {
            let host = exact[name.value] ?? wildcardHost(for: name)
            if let identity = host?.tls?.identity { return identity }
        }
        return defaultIdentity?.identity
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
