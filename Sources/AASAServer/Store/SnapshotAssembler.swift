import AASAKit
import Foundation

/// The last step of a load: the hosts read, their aliases and the default
/// host put together into a snapshot, or the previous snapshot kept when
/// nothing served has changed (so the generation counts real changes).
struct SnapshotAssembler {
    let configuration: ServerConfiguration.Hosts
    let previous: SiteSnapshot
    /// SIGHUP: the directory is taken as it is, nothing missing is kept.
    let force: Bool

    /// What the earlier steps produced.
    struct Parts {
        /// Hosts by directory name.
        var sites: [String: SiteHost] = [:]
        var aliases: [DirectoryScan.Alias] = []
        /// Every host name with an entry in the directory.
        var seen: Set<String> = []
        var defaultIdentity: LoadedIdentity?
        var rejected: [String: RejectedFile] = [:]
        /// Files and hosts missing now but still served.
        var missing: Set<String> = []
    }

    func assemble(_ parts: Parts, issues: inout [LoadIssue]) -> (snapshot: SiteSnapshot, missing: Set<String>) {
        var sites = parts.sites
        var missing = parts.missing
        for alias in parts.aliases {
            guard let target = sites[alias.target.name] else {
                issues.append(
                    LoadIssue(
                        host: alias.name.name,
                        path: alias.path,
                        code: .aliasTargetNotServed,
                        message: "alias of \(alias.target.name), which is not served"
                    )
                )
                continue
            }
            sites[alias.name.name] = target
        }
        let configured = ConfiguredAliases(configuration.aliases)
        // A host whose entry vanished since the last load (a directory
        // replaced by `rm -r` and a new copy) stays until a load finds it
        // still gone.
        if !force {
            for (name, host) in previous.sites
            where sites[name] == nil && !parts.seen.contains(name) && !configured.names.contains(name)
                && !previous.missing.contains(name)
            {
                sites[name] = host
                missing.insert(name)
            }
        }
        configured.apply(to: &sites, issues: &issues)
        return (snapshot(sites: sites, parts: parts, missing: missing, issues: &issues), missing)
    }

    private func snapshot(
        sites: [String: SiteHost],
        parts: Parts,
        missing: Set<String>,
        issues: inout [LoadIssue]
    ) -> SiteSnapshot {
        var exact: [String: SiteHost] = [:]
        var wildcards: [String: SiteHost] = [:]
        for (name, host) in sites {
            if let suffix = HostDirectoryName(name)?.wildcardSuffix {
                wildcards[suffix] = host
            } else {
                exact[name] = host
            }
        }
        var fallback: SiteHost?
        if let name = configuration.defaultHost {
            fallback = HostName(name: name).flatMap { exact[$0.value] }
            if fallback == nil {
                issues.append(
                    LoadIssue(
                        host: name,
                        path: "hosts.default",
                        code: .defaultHostNotServed,
                        message: "default host \(name) is not served"
                    )
                )
            }
        }
        let identical =
            sites.count == previous.sites.count
            && sites.allSatisfy { name, host in previous.sites[name] === host }
            && fallback === previous.fallback
            && parts.defaultIdentity?.certificateStamp == previous.defaultIdentity?.certificateStamp
            && parts.defaultIdentity?.keyStamp == previous.defaultIdentity?.keyStamp
            && parts.rejected == previous.rejected && missing == previous.missing
        if identical, previous.generation > 0 { return previous }
        let sameContent =
            sites.count == previous.sites.count
            && sites.allSatisfy { name, host in previous.sites[name]?.serves(sameAs: host) == true }
            && SiteHost.serve(fallback, sameAs: previous.fallback)
            && parts.defaultIdentity?.identity.chain == previous.defaultIdentity?.identity.chain
        let generation = sameContent && previous.generation > 0 ? previous.generation : previous.generation + 1
        // When only the bookkeeping changed (a file newly rejected while its
        // last good version is served, a file touched, a file missing for an
        // instant), the snapshot is new but its generation is not.
        return SiteSnapshot(
            sites: sites,
            exact: exact,
            wildcards: wildcards,
            fallback: fallback,
            defaultIdentity: parts.defaultIdentity,
            rejected: parts.rejected,
            missing: missing,
            loadedAt: generation == previous.generation ? previous.loadedAt : Date(),
            generation: generation
        )
    }
}
