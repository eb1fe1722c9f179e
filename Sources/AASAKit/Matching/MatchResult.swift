/// What the system decides for a URL.
public enum MatchDecision: String, Sendable {
    /// A rule without `exclude` matched first: the app opens.
    case matched
    /// An `exclude` rule matched first: the URL opens in the browser.
    case blocked
    /// No rule matched (or the app or host does not apply).
    case none
}

/// The outcome of ``AASAMatcher/evaluate(_:appID:)``, worded like
/// `swcutil verify`.
public struct MatchResult: Sendable {
    public var decision: MatchDecision
    /// The rule that decided; `nil` when none matched.
    public var rule: MatchedRule?
    /// A sentence for humans: `Pattern "/buy/*" matched.`,
    /// `Pattern "/admin/*" blocked match.`, `no rule matched`,
    /// `app ID not listed in applinks.details`, `URL host x is not y`.
    public var reason: String
    /// Why some rules could not match this URL at all (an undecodable
    /// component, a pattern that is too complex, an undefined variable).
    public var notes: [String]

    /// A result; `notes` explain rules that could not match at all.
    public init(decision: MatchDecision, rule: MatchedRule? = nil, reason: String, notes: [String] = []) {
        self.decision = decision
        self.rule = rule
        self.reason = reason
        self.notes = notes
    }

    /// `{"decision", "reason", "rule"?, "notes"?}` for `--format json`.
    public var json: JSONValue {
        var object = JSONObject()
        object["decision"] = .string(decision.rawValue)
        object["reason"] = .string(reason)
        if let rule { object["rule"] = rule.json }
        if !notes.isEmpty { object["notes"] = .array(notes.map(JSONValue.string)) }
        return .object(object)
    }
}

/// The rule that decided a match.
///
/// Its JSON and variables live in one shared box: a list of 100,000 URLs
/// decided by a few hundred rules copies this into every result, from
/// every core, and each reference-counted field was a retain and a
/// release on a cache line the cores fought over.
public struct MatchedRule: Sendable {
    private final class Storage: Sendable {
        let path: JSONPath
        let written: JSONValue
        let effective: JSONValue
        let variables: [String]

        init(path: JSONPath, written: JSONValue, effective: JSONValue, variables: [String]) {
            self.path = path
            self.written = written
            self.effective = effective
            self.variables = variables
        }
    }

    /// Index of the entry in `applinks.details`.
    public var detailIndex: Int
    /// Index of the rule in its `components` or `paths` array.
    public var ruleIndex: Int
    /// Whether a key that took part in the decision came from `defaults`.
    public var viaDefaults: Bool
    private var storage: Storage

    /// Where the rule is written, e.g. `applinks.details[0].components[3]`.
    public var path: JSONPath {
        get { storage.path }
        set { storage = Storage(path: newValue, written: written, effective: effective, variables: variables) }
    }
    /// The rule as written.
    public var written: JSONValue {
        get { storage.written }
        set { storage = Storage(path: path, written: newValue, effective: effective, variables: variables) }
    }
    /// The keys in force after the defaults merge.
    public var effective: JSONValue {
        get { storage.effective }
        set { storage = Storage(path: path, written: written, effective: newValue, variables: variables) }
    }
    /// The substitution variables the rule's patterns use, in order.
    public var variables: [String] {
        get { storage.variables }
        set { storage = Storage(path: path, written: written, effective: effective, variables: newValue) }
    }

    /// A description of the deciding rule.
    public init(
        detailIndex: Int,
        ruleIndex: Int,
        path: JSONPath,
        written: JSONValue,
        effective: JSONValue,
        viaDefaults: Bool,
        variables: [String]
    ) {
        self.detailIndex = detailIndex
        self.ruleIndex = ruleIndex
        self.viaDefaults = viaDefaults
        storage = Storage(path: path, written: written, effective: effective, variables: variables)
    }

    /// `{"index", "detail", "path", "rule", "effective", "viaDefaults", "variables"}`.
    public var json: JSONValue {
        var object = JSONObject()
        object["index"] = .number(Double(ruleIndex))
        object["detail"] = .number(Double(detailIndex))
        object["path"] = .string(path.description)
        object["rule"] = written
        object["effective"] = effective
        object["viaDefaults"] = .bool(viaDefaults)
        object["variables"] = .array(variables.map(JSONValue.string))
        return .object(object)
    }
}
