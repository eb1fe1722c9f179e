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
    public var explanation: NoMatchExplanation? {
        get { extras?.explanation }
        set { extras = Extras(explanation: newValue, package: package, dynamicRule: dynamicRule) }
    }
    /// The Android package tested (Android entries); `nil` otherwise.
    public var package: String? {
        get { extras?.package }
        set { extras = Extras(explanation: explanation, package: newValue, dynamicRule: dynamicRule) }
    }
    /// The dynamic App Link rule that decided (Android entries).
    public var dynamicRule: DynamicRule? {
        get { extras?.dynamicRule }
        set { extras = Extras(explanation: explanation, package: package, dynamicRule: newValue) }
    }

    /// What few results have, out of line: a result of a long list is
    /// about half the size with them boxed, so 100,000 results fault in
    /// 15 MB fewer fresh pages.
    private final class Extras: Sendable {
        let explanation: NoMatchExplanation?
        let package: String?
        let dynamicRule: DynamicRule?

        /// `nil` when there is nothing to box.
        init?(explanation: NoMatchExplanation?, package: String?, dynamicRule: DynamicRule?) {
            guard explanation != nil || package != nil || dynamicRule != nil else { return nil }
            self.explanation = explanation
            self.package = package
            self.dynamicRule = dynamicRule
        }
    }

    private var extras: Extras?

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
        explanation: NoMatchExplanation? = nil,
        package: String? = nil,
        dynamicRule: DynamicRule? = nil
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
        extras = Extras(explanation: explanation, package: package, dynamicRule: dynamicRule)
    }

    public var passed: Bool { failure == nil }

    /// Whether the URL is `http://` in an Apple entry: iOS never opens it
    /// in an app (Android verifies App Links for http as for https).
    public var isHTTP: Bool { entry.platform == .apple && url?.scheme == "http" }

    /// The app tested, for messages: the app ID, or the Android package.
    public var app: String? { appID ?? package }

    /// One line for humans: the verdict, and the rule that decided.
    public var summary: String {
        let rule =
            rule.map(Self.byRule)
            ?? dynamicRule.map { " by \($0.path) \(Self.without("comments", in: $0.written).serialized())" } ?? ""
        if let summary = Self.summary(
            failure: failure,
            isHTTP: isHTTP,
            decision: decision,
            rule: rule,
            expectation: entry.expectation
        ) {
            return summary
        }
        let expected = "expected \(entry.expectation.rawValue)"
        switch failure {
        case .unhandled:
            return "unhandled: \(explanation?.sentence ?? message) (\(expected))"
        case .intentFilters:
            return "intent filters decide: \(message) (\(expected))"
        default:
            return "\(failure?.title ?? ""): \(message)"
        }
    }

    /// ``summary`` for every verdict that the rule that decided (`rule`,
    /// ``byRule(_:)``) tells whole; `nil` for those that need the message
    /// or the explanation. Shared with the lean form of a report's text.
    static func summary(
        failure: LinkTestFailure?,
        isHTTP: Bool,
        decision: MatchDecision?,
        rule: String,
        expectation: LinkExpectations.Expectation
    ) -> String? {
        let expected = "expected \(expectation.rawValue)"
        switch failure {
        case nil where isHTTP:
            return "the browser opens: iOS opens no app for an http:// URL (no rule takes part)"
        case nil where decision == MatchDecision.none:
            return "not matched (no rule matched)"
        case nil:
            return "\(decision?.rawValue ?? "")\(rule)"
        case .excluded:
            return "excluded\(rule) (\(expected))"
        case .incorrectlyHandled:
            return "incorrectly handled: matched\(rule) (\(expected))"
        case .httpScheme:
            let https = decision.map { " (over https the rules decide: \($0.rawValue)\(rule))" } ?? ""
            return "http scheme: iOS opens apps for https:// links only\(https) (\(expected))"
        case .unhandled, .intentFilters, .invalidURL, .noFile, .fileUnusable, .appNotListed:
            return nil
        }
    }

    /// ` by <path> <rule as written, minus its comment>`: how a summary
    /// names an association file's rule.
    static func byRule(_ rule: MatchedRule) -> String {
        " by \(rule.path) \(without("comment", in: rule.written).serialized())"
    }

    /// A rule as written minus its comment (`comment` for Apple, `comments`
    /// for Android), which the system ignores and which would drown the one
    /// line a result gets.
    private static func without(_ commentKey: String, in rule: JSONValue) -> JSONValue {
        guard var object = rule.objectValue else { return rule }
        object[commentKey] = nil
        return .object(object)
    }

    /// `{"url", "expect", "passed", "site"?, "platform"? (android only),
    /// "appID"?, "package"?, "decision"?, "failure"?,
    /// "message", "rule"?, "notes"?, "explanation"?, "entry", "linksFile"?}`:
    /// the text of ``write(to:rule:)`` read back, so that the one writer is
    /// the only definition of the format. The rule is written whole here; a
    /// report names it by its index in a ``LinkTestRuleTable`` instead.
    ///
    /// Throws when the writer's text does not read back: a defect to be
    /// seen, never a `null` standing in for the result.
    public var json: JSONValue {
        get throws(JSONParseError) {
            var writer = JSONTextWriter()
            var reference = RuleReference.inline(RuleFragments())
            write(to: &writer, rule: &reference)
            return try JSONParser().parse(writer.bytes).value
        }
    }
}
