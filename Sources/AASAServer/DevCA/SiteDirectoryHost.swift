import AASAKit
import Foundation

/// A host directory of a served directory as the developer tools see it:
/// its name and the symlinked siblings that are aliases of it. (The server
/// reads the same layout through its own loader; this is the plain view
/// `aasa dev-cert` and `aasa dev` need to name certificates and print URLs.)
public struct SiteDirectoryHost: Sendable, Equatable {
    /// The directory's name: `brand.example` or `*.brand.example`.
    public let name: String
    /// Sibling symlinks pointing at it, sorted.
    public let aliases: [String]

    /// The names its certificate must cover: itself, then its aliases.
    public var names: [String] { [name] + aliases }

    public var isWildcard: Bool { name.hasPrefix("*.") }

    /// The host directories of `directory`, sorted by name. Entries that are
    /// not host names (a README, `.git`) are passed over, as the server does.
    public static func scan(_ directory: String) -> [SiteDirectoryHost] {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: directory) else { return [] }
        var hosts: [String] = []
        var aliases: [String: [String]] = [:]
        for entry in entries where !SiteLayout.isHidden(entry) {
            guard let name = HostDirectoryName(entry), name.name == entry else { continue }
            let path = directory + "/" + entry
            if let target = try? manager.destinationOfSymbolicLink(atPath: path) {
                // Only a sibling is an alias, as in the server's scan.
                if !target.contains("/"), HostDirectoryName(target) != nil {
                    aliases[target, default: []].append(entry)
                }
                continue
            }
            var isDirectory: ObjCBool = false
            if manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                hosts.append(entry)
            }
        }
        return hosts.sorted().map { SiteDirectoryHost(name: $0, aliases: (aliases[$0] ?? []).sorted()) }
    }
}
