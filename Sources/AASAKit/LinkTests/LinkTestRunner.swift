/// Runs a list of link expectations against an association file: for each
/// URL, encodes it as a URL parser would, asks the matcher what the system
/// decides for the app, and compares with what the list expects.
public struct LinkTestRunner: Sendable {
    public var file: AASAFile
    /// The host serving the file. `nil` takes each URL's own host, i.e.
    /// assumes the file is served by every host the list mentions.
    public var domain: String?

    public init(file: AASAFile, domain: String? = nil) {
        self.file = file
        self.domain = domain
    }

    /// Tests every entry for `app` (or the app an entry names). With no app
    /// at all, a file that lists exactly one app ID is tested for that one.
    public func run(_ expectations: LinkExpectations, app: LinkTestApp? = nil) -> LinkTestReport {
        var matchers: [String: AASAMatcher] = [:]
        var results: [LinkTestResult] = []
        for entry in expectations.entries {
            let url: AASAURL
            do {
                url = try AASAURL(entry.url)
            } catch {
                results.append(LinkTestResult(entry: entry, failure: .invalidURL, message: "\(error)"))
                continue
            }
            let host = (domain ?? url.host).lowercased()
            let matcher = matchers[host] ?? AASAMatcher(file: file, domain: host)
            matchers[host] = matcher
            switch resolve(entry.app ?? app, among: matcher.appIDs) {
            case .failure(let problem):
                results.append(LinkTestResult(entry: entry, failure: .appNotListed, message: problem.message))
            case .success(let appIDs):
                for appID in appIDs {
                    results.append(Self.judge(entry, appID: appID, result: matcher.evaluate(url, appID: appID)))
                }
            }
        }
        return LinkTestReport(results: results)
    }

    private struct AppProblem: Error {
        var message: String
    }

    private func resolve(_ app: LinkTestApp?, among listed: [String]) -> Result<[String], AppProblem> {
        let listing = listed.isEmpty ? "the file lists no app in applinks" : "listed: \(listed.joined(separator: ", "))"
        switch app {
        case nil:
            guard listed.count == 1 else {
                return .failure(AppProblem(message: "no app given and the file does not list exactly one (\(listing))"))
            }
            return .success(listed)
        case .appID(let appID)?:
            guard listed.contains(appID) else {
                return .failure(AppProblem(message: "app ID \(appID) is not listed in applinks.details (\(listing))"))
            }
            return .success([appID])
        case .bundleID(let bundleID)?:
            let matching = listed.filter { app?.matches(appID: $0) == true }
            guard !matching.isEmpty else {
                return .failure(AppProblem(message: "no app ID in applinks.details has bundle ID \(bundleID) (\(listing))"))
            }
            return .success(matching)
        }
    }

    private static func judge(_ entry: LinkExpectations.Entry, appID: String, result: MatchResult) -> LinkTestResult {
        let failure: LinkTestFailure?
        switch (entry.expectation, result.decision) {
        case (.matched, .matched), (.blocked, .blocked), (.none, .none), (.notMatched, .blocked), (.notMatched, .none):
            failure = nil
        case (.matched, .none), (.blocked, .none):
            failure = .unhandled
        case (.matched, .blocked), (.none, .blocked):
            failure = .excluded
        case (.blocked, .matched), (.none, .matched), (.notMatched, .matched):
            failure = .incorrectlyHandled
        }
        return LinkTestResult(
            entry: entry, appID: appID, decision: result.decision, rule: result.rule, failure: failure,
            message: result.reason, notes: result.notes
        )
    }
}

/// Why a link test failed.
public enum LinkTestFailure: String, Sendable, Hashable {
    /// No rule matched a URL that should open the app.
    case unhandled
    /// An exclusion rule matched first and blocked the URL.
    case excluded
    /// A rule matched (the app opens) for a URL that should not open it.
    case incorrectlyHandled = "incorrectly-handled"
    /// The URL could not be parsed.
    case invalidURL = "invalid-url"
    /// The app to test is not in the file (or none was named).
    case appNotListed = "app-not-listed"

    /// A heading for humans.
    public var title: String {
        switch self {
        case .unhandled: "unhandled"
        case .excluded: "excluded"
        case .incorrectlyHandled: "incorrectly handled"
        case .invalidURL: "invalid URL"
        case .appNotListed: "app not listed"
        }
    }
}

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
        entry: LinkExpectations.Entry, appID: String? = nil, decision: MatchDecision? = nil, rule: MatchedRule? = nil,
        failure: LinkTestFailure?, message: String, notes: [String] = []
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
            return "unhandled: no rule matched (\(expected)); \(message)"
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

/// All results of a run.
public struct LinkTestReport: Sendable {
    public var results: [LinkTestResult]

    public init(results: [LinkTestResult]) {
        self.results = results
    }

    public var passedCount: Int { results.count(where: \.passed) }
    public var failedCount: Int { results.count - passedCount }
    public var failures: [LinkTestResult] { results.filter { !$0.passed } }

    /// `N passed, M failed`.
    public var summaryLine: String { "\(passedCount) passed, \(failedCount) failed" }
}
