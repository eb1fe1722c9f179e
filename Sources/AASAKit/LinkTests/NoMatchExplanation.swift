/// Why no rule of an app's entry matched a URL, in terms an author can act
/// on: how many rules were tried, and the nearest ones — the rules that
/// match some of the URL, which of their keys do not, and whether a flag
/// (`caseSensitive`, `percentEncoded`) is what stands in the way.
///
/// Each key of each rule is probed on its own with ``AASAMatcher`` (a
/// one-rule file carrying the rule's effective flags and the file's
/// substitution variables), so the explanation agrees with the matcher by
/// construction.
public struct NoMatchExplanation: Sendable {
    /// A rule that matched part of the URL, or would have with one flag changed.
    public struct Candidate: Sendable {
        public var rule: Rule
        /// The URL components whose keys matched: `path`, `query`, `fragment`.
        public var matching: [String]
        /// The URL components whose keys did not.
        public var failing: [String]
        /// The one flag change that makes a failing key match, when there is one.
        public var hint: String?
    }

    /// The entry of `applinks.details` that holds the app's rules.
    public var detailPath: JSONPath
    /// How many rules the app has there.
    public var ruleCount: Int
    /// The nearest rules, nearest first; at most ``maximumCandidates``.
    public var candidates: [Candidate]
    /// Whether every rule has a path pattern that fails (the commonest case,
    /// worth saying plainly).
    public var noPathMatches: Bool
    /// The URL's path, as compared.
    public var urlPath: String

    /// Candidates shown: the nearest few are what helps.
    public static let maximumCandidates = 3

    /// Explains a URL that no rule of `appID` matched; `nil` when the file
    /// does not list the app in `applinks.details`.
    public init?(file: AASAFile, url: AASAURL, appID: String) {
        guard let appLinks = file.appLinks, let index = appLinks.detailIndex(for: appID) else { return nil }
        let detail = appLinks.details[index]
        let prober = KeyProber(url: url, variables: file.json["applinks"]?["substitutionVariables"])
        var candidates: [Candidate] = []
        var noPathMatches = true
        for rule in detail.rules {
            let probes = prober.probe(rule)
            if !probes.failing.contains("path") { noPathMatches = false }
            if !probes.matching.isEmpty || probes.hint != nil {
                candidates.append(
                    Candidate(rule: rule, matching: probes.matching, failing: probes.failing, hint: probes.hint)
                )
            }
        }
        // A flag hint is the nearest of all: one change makes it match.
        let ranked = candidates.enumerated().sorted { lhs, rhs in
            let left = (lhs.element.hint == nil ? 1 : 0, lhs.element.failing.count, lhs.offset)
            let right = (rhs.element.hint == nil ? 1 : 0, rhs.element.failing.count, rhs.offset)
            return left < right
        }
        self.detailPath = detail.path
        self.ruleCount = detail.rules.count
        self.candidates = ranked.prefix(Self.maximumCandidates).map(\.element)
        self.noPathMatches = noPathMatches && !detail.rules.isEmpty
        self.urlPath = url.path.isEmpty ? "/" : url.path
    }

    /// `no rule matched (3 rules tried in applinks.details[0]); nearest: …`.
    public var sentence: String {
        guard ruleCount > 0 else { return "no rule matched: \(detailPath) has no rules for this app" }
        let tried = "\(ruleCount) rule\(ruleCount == 1 ? "" : "s") tried in \(detailPath)"
        guard !candidates.isEmpty else {
            let none = noPathMatches ? "none matches the path \(urlPath)" : "none matches any part of the URL"
            return "no rule matched (\(tried); \(none))"
        }
        let nearest = candidates.map { candidate in
            "\(candidate.rule.path) \(Self.display(candidate.rule)) (\(Self.describe(candidate)))"
        }
        return "no rule matched (\(tried)); nearest: " + nearest.joined(separator: "; ")
    }

    /// `{"rulesTried", "detail", "nearest": [{"path", "rule", "matching", "failing", "hint"?}]}`.
    public var json: JSONValue {
        let nearest = candidates.map { candidate -> JSONValue in
            var object = JSONObject()
            object["path"] = .string(candidate.rule.path.description)
            object["rule"] = candidate.rule.written
            object["matching"] = .array(candidate.matching.map(JSONValue.string))
            object["failing"] = .array(candidate.failing.map(JSONValue.string))
            if let hint = candidate.hint { object["hint"] = .string(hint) }
            return .object(object)
        }
        return [
            "rulesTried": .number(Double(ruleCount)),
            "detail": .string(detailPath.description),
            "nearest": .array(nearest),
        ]
    }

    /// A rule as written minus its `comment`, which the system ignores and
    /// which would drown the line.
    static func display(_ rule: Rule) -> String {
        guard var object = rule.written.objectValue else { return rule.written.serialized() }
        object["comment"] = nil
        return JSONValue.object(object).serialized()
    }

    /// `the path matches, the query does not`.
    private static func describe(_ candidate: Candidate) -> String {
        var parts: [String] = []
        if !candidate.matching.isEmpty {
            parts.append("the \(list(candidate.matching)) \(candidate.matching.count == 1 ? "matches" : "match")")
        }
        if let hint = candidate.hint {
            parts.append(hint)
        } else if !candidate.failing.isEmpty {
            parts.append("the \(list(candidate.failing)) \(candidate.failing.count == 1 ? "does" : "do") not")
        }
        return parts.joined(separator: ", ")
    }

    private static func list(_ names: [String]) -> String {
        guard names.count > 1, let last = names.last else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }
}

/// Matches one key of a rule at a time against a URL.
private struct KeyProber {
    static let probeAppID = "PROBE.probe"
    static let keys: [(key: String, component: String)] = [("/", "path"), ("?", "query"), ("#", "fragment")]

    var url: AASAURL
    var variables: JSONValue?

    struct Probes {
        var matching: [String] = []
        var failing: [String] = []
        var hint: String?
    }

    func probe(_ rule: Rule) -> Probes {
        var probes = Probes()
        let caseSensitive = rule.keys.caseSensitive
        let percentEncoded = rule.keys.percentEncoded
        for (key, component) in Self.keys {
            // A legacy `paths` entry compares the path only (its merged
            // defaults hold no `?` or `#`).
            guard let value = rule.effective[key], rule.form == .component || key == "/" else { continue }
            if matches(key, value, caseSensitive: caseSensitive, percentEncoded: percentEncoded) {
                probes.matching.append(component)
                continue
            }
            probes.failing.append(component)
            guard probes.hint == nil else { continue }
            if caseSensitive, matches(key, value, caseSensitive: false, percentEncoded: percentEncoded) {
                probes.hint = "the \(component) differs only in letter case and the rule is case-sensitive"
            } else if matches(key, value, caseSensitive: caseSensitive, percentEncoded: !percentEncoded) {
                probes.hint = "the \(component) would match with \"percentEncoded\": \(!percentEncoded)"
            }
        }
        // A hint only helps when that key is all that stands in the way.
        if probes.failing.count > 1 { probes.hint = nil }
        return probes
    }

    private func matches(_ key: String, _ value: JSONValue, caseSensitive: Bool, percentEncoded: Bool) -> Bool {
        let component: JSONValue = [
            key: value, "caseSensitive": .bool(caseSensitive), "percentEncoded": .bool(percentEncoded),
        ]
        var appLinks = JSONObject([("details", [["appIDs": [.string(Self.probeAppID)], "components": [component]]])])
        if let variables { appLinks["substitutionVariables"] = variables }
        let file = AASAFile(json: ["applinks": .object(appLinks)])
        return AASAMatcher(file: file).evaluate(url, appID: Self.probeAppID).decision == .matched
    }
}
