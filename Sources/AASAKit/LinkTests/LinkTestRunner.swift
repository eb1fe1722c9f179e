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
                return .failure(
                    AppProblem(message: "no app ID in applinks.details has bundle ID \(bundleID) (\(listing))")
                )
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
            entry: entry,
            appID: appID,
            decision: result.decision,
            rule: result.rule,
            failure: failure,
            message: result.reason,
            notes: result.notes
        )
    }
}
