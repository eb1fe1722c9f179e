/// Runs a list of link expectations against association files: for each
/// URL, picks the file serving its host, encodes the URL as a URL parser
/// would, asks the matcher what the system decides for the app, and
/// compares with what the list expects.
public struct LinkTestRunner: Sendable {
    public var sites: LinkTestSites
    /// Restricts the run to URLs of this host; the others are skipped, with
    /// a warning. `nil` tests every URL against its own host's file.
    public var domain: String?
    /// Whether to list the rules no URL exercises (``LinkTestReport/uncoveredRules``),
    /// each also a warning.
    public var coverage: Bool

    /// One association file. With `domain`, it is the file of that host and
    /// only that host's URLs are tested; without, it is taken to serve
    /// every host the list mentions.
    public init(file: AASAFile, domain: String? = nil, coverage: Bool = false) {
        let site = LinkTestSites.Site(name: domain ?? "the association file", content: .file(file))
        self.init(
            sites: domain.map { LinkTestSites(byHost: [$0: site]) } ?? .everyHost(site),
            domain: domain,
            coverage: coverage
        )
    }

    /// Files by host: each URL is matched against the file of its own host.
    public init(sites: LinkTestSites, domain: String? = nil, coverage: Bool = false) {
        self.sites = sites
        self.domain = domain?.lowercased()
        self.coverage = coverage
    }

    /// Tests every entry for `app` (or the app an entry names). With no app
    /// at all, the one app the files list in `applinks` is tested.
    ///
    /// Throws instead of reporting when the run cannot mean anything: an
    /// empty list, every URL skipped, an app no file lists, no app given
    /// where the files list several.
    ///
    /// Android entries (`"platform": "android"`) are judged by the host's
    /// `assetlinks.json` for their own `package`, else `package`, else the
    /// one package the files grant App Links.
    public func run(
        _ expectations: LinkExpectations,
        app: LinkTestApp? = nil,
        package: String? = nil
    ) throws(LinkTestSetupError)
        -> LinkTestReport
    {
        let plan = try LinkTestPlan(expectations, sites: sites, domain: domain)
        let defaultApp = try plan.checkApps(app)
        let defaultPackage = try plan.checkPackages(package, sites: sites)
        var state = RunState()
        var android = AndroidRunState()
        var results: [LinkTestResult] = []
        for item in plan.items {
            if item.entry.platform == .android {
                results.append(evaluateAndroid(item, package: item.entry.package ?? defaultPackage, state: &android))
                continue
            }
            results += evaluate(item, app: item.entry.app ?? app ?? defaultApp, state: &state)
        }
        var warnings = plan.warnings + state.warnings
        if coverage { warnings += android.coverage.warnings }
        var uncovered: [UncoveredRule]?
        if coverage {
            let rules = state.coverage.uncovered
            uncovered = rules
            warnings += rules.map(\.warning)
        }
        return LinkTestReport(results: results, warnings: warnings, skipped: plan.skipped, uncoveredRules: uncovered)
    }

    /// What a run accumulates besides results.
    private struct RunState {
        var matchers: [String: AASAMatcher] = [:]
        var coverage = LinkCoverage()
        var warnings: [Diagnostic] = []
        var ambiguityWarned: Set<String> = []
    }

    private func evaluate(_ item: LinkTestPlan.Item, app: LinkTestApp?, state: inout RunState) -> [LinkTestResult] {
        let entry = item.entry
        let url: AASAURL
        switch item.url {
        case .failure(let error):
            return [LinkTestResult(entry: entry, failure: .invalidURL, message: error.description)]
        case .success(let parsed):
            url = parsed
        }
        guard let (key, site) = sites.site(for: url.host) else {
            let known = sites.hostNames.joined(separator: ", ")
            return [
                LinkTestResult(
                    entry: entry,
                    url: url,
                    failure: .noFile,
                    message: "no association file serves \(url.host) (files for: \(known))"
                )
            ]
        }
        let file: AASAFile
        switch site.content {
        case .unusable(let reason):
            return [LinkTestResult(entry: entry, url: url, site: key, failure: .fileUnusable, message: reason)]
        case .absent(let host):
            let message = "no apple-app-site-association for \(host) (it serves only assetlinks.json)"
            return [LinkTestResult(entry: entry, url: url, site: key, failure: .noFile, message: message)]
        case .file(let usable):
            file = usable
        }
        let listed = file.appLinksAppIDs
        let appIDs = app?.matching(listed) ?? []
        guard !appIDs.isEmpty else {
            let listing = listed.isEmpty ? "it lists no app" : "listed: \(listed.joined(separator: ", "))"
            let name = app.map { "\($0)" } ?? "no app"
            return [
                LinkTestResult(
                    entry: entry,
                    url: url,
                    site: key,
                    failure: .appNotListed,
                    message: "\(name) is not in applinks.details of \(site.name) (\(listing))"
                )
            ]
        }
        if appIDs.count > 1, let app, state.ambiguityWarned.insert("\(key) \(app)").inserted {
            state.warnings.append(
                Diagnostic(
                    .warning,
                    code: "links.ambiguous-bundle-id",
                    path: .root,
                    message:
                        "bundle ID \(app) names \(appIDs.count) apps here (\(appIDs.joined(separator: ", "))); each is tested",
                    file: site.name
                )
            )
        }
        let matcher = state.matchers[key] ?? AASAMatcher(file: file)
        state.matchers[key] = matcher
        return appIDs.map { appID in
            let result = matcher.evaluate(url, appID: appID)
            if coverage {
                state.coverage.tested(appID, site: key, name: site.name, file: file)
                if let rule = result.rule, url.scheme == "https" { state.coverage.decided(rule, site: key) }
            }
            return Self.judge(entry, url: url, site: key, appID: appID, result: result, file: file)
        }
    }

    private static func judge(
        _ entry: LinkExpectations.Entry,
        url: AASAURL,
        site: String,
        appID: String,
        result: MatchResult,
        file: AASAFile
    ) -> LinkTestResult {
        let failure: LinkTestFailure?
        switch (entry.expectation, result.decision) {
        case (.matched, _) where url.scheme == "http":
            failure = .httpScheme
        case (_, _) where url.scheme == "http":
            // The browser opens, which is all such an entry can ask; a
            // warning says it tests no rule.
            failure = nil
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
            url: url,
            site: site,
            appID: appID,
            decision: result.decision,
            rule: result.rule,
            failure: failure,
            message: result.reason,
            notes: result.notes,
            explanation: failure == .unhandled ? NoMatchExplanation(file: file, url: url, appID: appID) : nil
        )
    }
}
