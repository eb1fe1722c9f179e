/// A rule that no URL of the list exercises.
///
/// "Exercised" means *decided at least one https URL* of the list for an
/// app tested at that host: the first rule that matched it, blocking or
/// opening. A rule that only ever loses to an earlier one is not exercised,
/// because nothing in the list shows it doing anything; an http URL
/// exercises nothing, because iOS never consults the file for it.
public struct UncoveredRule: Sendable {
    /// The host (or `*.` wildcard, or file) whose file holds the rule.
    public var site: String
    /// The file's name, for messages.
    public var siteName: String
    /// The tested apps whose entry holds the rule.
    public var appIDs: [String]
    public var rule: Rule

    /// The warning it becomes: `links.uncovered-rule`, in the association file.
    public var warning: Diagnostic {
        let kind = rule.isExclusion ? "exclusion" : "rule"
        return Diagnostic(
            .warning,
            code: "links.uncovered-rule",
            path: rule.path,
            message:
                "no URL of the links list is decided by this \(kind) \(NoMatchExplanation.display(rule)) (for \(appIDs.joined(separator: ", ")) at \(site))",
            file: siteName
        )
    }
}

/// Collects which rules decided which URLs during a run.
struct LinkCoverage {
    private struct DetailKey: Hashable {
        var site: String
        var detail: Int
    }

    private var files: [String: (name: String, file: AASAFile)] = [:]
    private var apps: [DetailKey: [String]] = [:]
    private var decided: Set<String> = []

    /// Notes that `appID` was tested at `site`, so its rules count.
    mutating func tested(_ appID: String, site: String, name: String, file: AASAFile) {
        guard let detail = file.appLinks?.detailIndex(for: appID) else { return }
        files[site] = (name, file)
        let key = DetailKey(site: site, detail: detail)
        if apps[key]?.contains(appID) != true { apps[key, default: []].append(appID) }
    }

    /// Notes that `rule` decided a URL at `site`.
    mutating func decided(_ rule: MatchedRule, site: String) {
        decided.insert("\(site) \(rule.path)")
    }

    /// Every rule of a tested app's entry that decided nothing, by site,
    /// then in file order.
    var uncovered: [UncoveredRule] {
        var rules: [UncoveredRule] = []
        let keys = apps.keys.sorted { ($0.site, $0.detail) < ($1.site, $1.detail) }
        for key in keys {
            guard let (name, file) = files[key.site], let detail = file.appLinks?.details[key.detail] else { continue }
            for rule in detail.rules where !decided.contains("\(key.site) \(rule.path)") {
                rules.append(UncoveredRule(site: key.site, siteName: name, appIDs: apps[key] ?? [], rule: rule))
            }
        }
        return rules
    }
}
