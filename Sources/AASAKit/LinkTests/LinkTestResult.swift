/// The outcome of one URL for one app.
public struct LinkTestResult: Sendable {
    public var entry: LinkExpectations.Entry
    /// The URL as matched (encoded like a URL parser would); `nil` when it
    /// could not be parsed.
    public var url: AASAURL?
    /// The host (or `*.` wildcard, or file) whose association file was used;
    /// `nil` when the URL could not be parsed.
    public var site: String?
    /// The app ID tested; `nil` when the test could not run.
    public var appID: String?
    /// What the rules decide; `nil` when the test could not run. For an
    /// `http://` URL this is what they decide for the same URL over https:
    /// iOS itself opens no app for it.
    public var decision: MatchDecision?
    /// The rule that decided.
    public var rule: MatchedRule?
    /// `nil` when the test passed.
    public var failure: LinkTestFailure?
    /// The matcher's explanation, or why the test could not run.
    public var message: String
    /// The matcher's notes on rules that could not match at all.
    public var notes: [String]
    /// Why no rule matched, for a URL that should have opened the app.
    public var explanation: NoMatchExplanation?

    public init(
        entry: LinkExpectations.Entry,
        url: AASAURL? = nil,
        site: String? = nil,
        appID: String? = nil,
        decision: MatchDecision? = nil,
        rule: MatchedRule? = nil,
        failure: LinkTestFailure?,
        message: String,
        notes: [String] = [],
        explanation: NoMatchExplanation? = nil
    ) {
        self.entry = entry
        self.url = url
        self.site = site
        self.appID = appID
        self.decision = decision
        self.rule = rule
        self.failure = failure
        self.message = message
        self.notes = notes
        self.explanation = explanation
    }

    public var passed: Bool { failure == nil }

    /// Whether the URL is `http://`, which iOS never opens in an app.
    public var isHTTP: Bool { url?.scheme == "http" }

    /// One line for humans: the verdict, and the rule that decided.
    public var summary: String {
        let expected = "expected \(entry.expectation.rawValue)"
        let rule = rule.map { " by \($0.path) \(Self.withoutComment($0.written).serialized())" } ?? ""
        switch failure {
        case nil where isHTTP:
            return "the browser opens: iOS opens no app for an http:// URL (no rule takes part)"
        case nil where decision == MatchDecision.none:
            return "not matched (no rule matched)"
        case nil:
            return "\(decision?.rawValue ?? "")\(rule)"
        case .unhandled:
            return "unhandled: \(explanation?.sentence ?? message) (\(expected))"
        case .excluded:
            return "excluded\(rule) (\(expected))"
        case .incorrectlyHandled:
            return "incorrectly handled: matched\(rule) (\(expected))"
        case .httpScheme:
            let https = decision.map { " (over https the rules decide: \($0.rawValue)\(rule))" } ?? ""
            return "http scheme: iOS opens apps for https:// links only\(https) (\(expected))"
        case .invalidURL, .noFile, .fileUnusable, .appNotListed:
            return "\(failure?.title ?? ""): \(message)"
        }
    }

    /// A rule as written minus its `comment`, which the system ignores and
    /// which would drown the one line a result gets.
    private static func withoutComment(_ rule: JSONValue) -> JSONValue {
        guard var object = rule.objectValue else { return rule }
        object["comment"] = nil
        return .object(object)
    }

    /// `{"url", "expect", "passed", "site"?, "appID"?, "decision"?, "failure"?,
    /// "message", "rule"?, "notes"?, "explanation"?, "entry", "linksFile"?}`.
    public var json: JSONValue {
        var object = JSONObject()
        object["url"] = .string(entry.url)
        object["expect"] = .string(entry.expectation.rawValue)
        object["passed"] = .bool(passed)
        if let site { object["site"] = .string(site) }
        if let appID { object["appID"] = .string(appID) }
        if let decision { object["decision"] = .string(decision.rawValue) }
        if let failure { object["failure"] = .string(failure.rawValue) }
        object["message"] = .string(message)
        if let rule { object["rule"] = rule.json }
        if !notes.isEmpty { object["notes"] = .array(notes.map(JSONValue.string)) }
        if let explanation { object["explanation"] = explanation.json }
        object["entry"] = .string(entry.path.description)
        if let file = entry.file { object["linksFile"] = .string(file) }
        return .object(object)
    }
}
