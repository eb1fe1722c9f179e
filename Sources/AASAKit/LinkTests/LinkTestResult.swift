/// The outcome of one URL for one app.
public struct LinkTestResult: Sendable {
    public var entry: LinkExpectations.Entry
    /// The app ID tested; `nil` when the test could not run.
    public var appID: String?
    /// What the system decides; `nil` when the test could not run.
    public var decision: MatchDecision?
    /// The rule that decided.
    public var rule: MatchedRule?
    /// `nil` when the test passed.
    public var failure: LinkTestFailure?
    /// The matcher's explanation, or why the test could not run.
    public var message: String
    /// The matcher's notes on rules that could not match at all.
    public var notes: [String]

    public init(
        entry: LinkExpectations.Entry,
        appID: String? = nil,
        decision: MatchDecision? = nil,
        rule: MatchedRule? = nil,
        failure: LinkTestFailure?,
        message: String,
        notes: [String] = []
    ) {
        self.entry = entry
        self.appID = appID
        self.decision = decision
        self.rule = rule
        self.failure = failure
        self.message = message
        self.notes = notes
    }

    public var passed: Bool { failure == nil }

    /// One line for humans: the verdict, and the rule that decided.
    public var summary: String {
        let expected = "expected \(entry.expectation.rawValue)"
        let rule = rule.map { " by \($0.path) \(Self.withoutComment($0.written).serialized())" } ?? ""
        switch failure {
        case nil where decision == MatchDecision.none:
            return "not matched (no rule matched)"
        case nil:
            return "\(decision?.rawValue ?? "")\(rule)"
        case .unhandled:
            // The matcher's reason matters when it is not the plain "no rule
            // matched" (another host, an app not listed).
            let reason = message.contains("no rule matched") ? "" : "; \(message)"
            return "unhandled: no rule matched (\(expected))\(reason)"
        case .excluded:
            return "excluded\(rule) (\(expected))"
        case .incorrectlyHandled:
            return "incorrectly handled: matched\(rule) (\(expected))"
        case .invalidURL, .appNotListed:
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

    /// `{"url", "expect", "passed", "appID"?, "decision"?, "failure"?, "message", "rule"?}`.
    public var json: JSONValue {
        var object = JSONObject()
        object["url"] = .string(entry.url)
        object["expect"] = .string(entry.expectation.rawValue)
        object["passed"] = .bool(passed)
        if let appID { object["appID"] = .string(appID) }
        if let decision { object["decision"] = .string(decision.rawValue) }
        if let failure { object["failure"] = .string(failure.rawValue) }
        object["message"] = .string(message)
        if let rule { object["rule"] = rule.json }
        if !notes.isEmpty { object["notes"] = .array(notes.map(JSONValue.string)) }
        object["entry"] = .string(entry.path.description)
        return .object(object)
    }
}
