/// What Android decides for a URL from a site's dynamic App Link rules.
public enum DynamicLinkDecision: String, Sendable {
    /// A rule without `exclude` matched first: the app opens the URL
    /// (provided its intent filters declare the URL's host and scheme: the
    /// rules only narrow what the manifest claims).
    case matched
    /// An `exclude` rule matched first: the URL opens in the browser.
    case blocked
    /// No rule matched, or the file does not verify App Links for the
    /// package on this host at all.
    case none
    /// No dynamic rules apply to the package here (none are written, or the
    /// set is malformed and Android ignores it): the app's intent filters
    /// alone decide.
    case intentFilters
}

/// The outcome of ``DynamicLinkMatcher/evaluate(_:package:)``, worded like
/// the Apple matcher's ``MatchResult``.
public struct DynamicLinkResult: Sendable {
    public var decision: DynamicLinkDecision
    /// The rule that decided; `nil` unless `decision` is `matched` or
    /// `blocked`.
    public var rule: DynamicRule?
    /// A sentence for people: `Pattern "/buy/*" matched.`,
    /// `Pattern {"/":"/admin/*","exclude":true} blocked match.`,
    /// `no rule matched`, or why no rule could decide.
    public var reason: String
    /// Caveats about the decision (a result that depends on how Android's
    /// matcher treats a `*` before more pattern text).
    public var notes: [String]

    /// A result; `notes` hold caveats.
    public init(decision: DynamicLinkDecision, rule: DynamicRule? = nil, reason: String, notes: [String] = []) {
        self.decision = decision
        self.rule = rule
        self.reason = reason
        self.notes = notes
    }

    /// `{"decision", "reason", "rule"?: {"index", "path", "rule"}, "notes"?}`
    /// for `--format json`.
    public var json: JSONValue {
        var object = JSONObject()
        object["decision"] = .string(decision.rawValue)
        object["reason"] = .string(reason)
        if let rule {
            var ruleObject = JSONObject()
            ruleObject["index"] = .number(Double(rule.index))
            ruleObject["path"] = .string(rule.path.description)
            ruleObject["rule"] = rule.written
            object["rule"] = .object(ruleObject)
        }
        if !notes.isEmpty { object["notes"] = .array(notes.map(JSONValue.string)) }
        return .object(object)
    }
}
