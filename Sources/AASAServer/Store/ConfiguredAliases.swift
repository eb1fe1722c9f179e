import AASAKit
import Foundation

/// The `hosts.aliases` setting: extra names (`alias=target`) for hosts that
/// have a directory. A host's own directory is more specific than an alias.
struct ConfiguredAliases {
    private var pairs: [(alias: HostDirectoryName, target: HostDirectoryName)] = []
    private var malformed: [String] = []

    /// The alias names, which are never directory entries of their own.
    var names: Set<String> { Set(pairs.map(\.alias.name)) }

    init(_ entries: [String]) {
        for entry in entries {
            let parts = entry.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let alias = HostDirectoryName(parts[0]), let target = HostDirectoryName(parts[1])
            else {
                malformed.append(entry)
                continue
            }
            pairs.append((alias, target))
        }
    }

    func apply(to sites: inout [String: SiteHost], issues: inout [LoadIssue]) {
        for entry in malformed {
            issues.append(Self.issue(nil, "not `alias=target`: \(LoadIssue.printable(entry))"))
        }
        for (alias, target) in pairs {
            guard let host = sites[target.name] else {
                issues.append(Self.issue(alias.name, "alias target \(target.name) is not served"))
                continue
            }
            guard sites[alias.name] == nil else {
                issues.append(Self.issue(alias.name, "\(alias.name) has its own directory; alias ignored"))
                continue
            }
            sites[alias.name] = host
        }
    }

    private static func issue(_ host: String?, _ message: String) -> LoadIssue {
        LoadIssue(host: host, path: "hosts.aliases", code: .badConfiguredAlias, message: message)
    }
}
