import AASAKit

/// The `hosts.staging` setting: staging names derived from every served
/// host by a pattern, so `lieferando-de.aasa-staging.example.com` serves
/// `lieferando.de`'s files without a directory or an alias per brand.
///
/// The pattern holds `{label}` once, standing for one DNS label that
/// spells a served host: `-` in it stands for `.`, and `--` for a real `-`
/// (`my--brand-de` is `my-brand.de`). DNS labels cannot hold a `.`, so one
/// of the two had to be escaped; `-` inside a domain is the rarer one.
struct StagingNames: Sendable {
    /// One pattern, split around `{label}`.
    struct Rule: Sendable, Hashable {
        let prefix: String
        let suffix: String

        /// `nil` unless `pattern` holds `{label}` exactly once and is, with
        /// a label in its place, a host name.
        init?(_ pattern: String) {
            let pieces = pattern.lowercased().components(separatedBy: "{label}")
            guard pieces.count == 2 else { return nil }
            prefix = pieces[0]
            suffix = pieces[1]
            // The label must be a whole DNS label of the name.
            guard prefix.isEmpty || prefix.hasSuffix("."), suffix.isEmpty || suffix.hasPrefix(".") else { return nil }
            guard HostName(name: prefix + "label" + suffix)?.value == prefix + "label" + suffix else { return nil }
        }

        /// The host name a staging name spells, or nil when it does not
        /// fit the pattern.
        func target(of name: String) -> String? {
            guard name.utf8.count > prefix.utf8.count + suffix.utf8.count,
                name.hasPrefix(prefix), name.hasSuffix(suffix)
            else { return nil }
            let label = name.dropFirst(prefix.count).dropLast(suffix.count)
            guard !label.contains(".") else { return nil }
            return Self.decode(label)
        }

        /// `-` → `.`, `--` → `-`, left to right.
        static func decode(_ label: Substring) -> String {
            var result = ""
            var index = label.startIndex
            while index < label.endIndex {
                let character = label[index]
                let next = label.index(after: index)
                if character == "-" {
                    if next < label.endIndex, label[next] == "-" {
                        result.append("-")
                        index = label.index(after: next)
                        continue
                    }
                    result.append(".")
                } else {
                    result.append(character)
                }
                index = next
            }
            return result
        }

        /// The staging name of `host` (for messages and `aasa dev`).
        func name(for host: String) -> String {
            prefix + host.replacingOccurrences(of: "-", with: "--").replacingOccurrences(of: ".", with: "-") + suffix
        }
    }

    let rules: [Rule]
    /// Patterns that are not usable, reported by every load.
    let malformed: [String]

    static let none = StagingNames([])

    init(_ patterns: [String]) {
        var rules: [Rule] = []
        var malformed: [String] = []
        for pattern in patterns {
            if let rule = Rule(pattern) { rules.append(rule) } else { malformed.append(pattern) }
        }
        self.rules = rules
        self.malformed = malformed
    }

    /// The host a staging name serves, looked up among exact names only
    /// (a served host, an alias): never the default host, so a label
    /// naming nothing falls through to the caller's fallback.
    func host(for name: HostName, in exact: [String: SiteHost]) -> SiteHost? {
        for rule in rules {
            if let target = rule.target(of: name.value), let host = exact[target] { return host }
        }
        return nil
    }

    func issues() -> [LoadIssue] {
        malformed.map {
            LoadIssue(
                host: nil,
                path: "hosts.staging",
                code: .badConfiguredAlias,
                message: "not a pattern with {label} as one whole label (e.g. {label}.staging.example.com): "
                    + LoadIssue.printable($0)
            )
        }
    }
}
