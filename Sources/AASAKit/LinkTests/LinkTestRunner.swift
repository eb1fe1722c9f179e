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
        let loaded = loadedSites(plan.items)
        // Each Apple item on its own, across the cores for a long list; what a
        // run accumulates (warnings, coverage) is gathered after, in list order.
        var perItem: [[LinkTestResult]] = ParallelBatch.map(
            count: plan.items.count,
            parallel: true,
            state: MatchScratch.init
        ) {
            index,
            scratch in
            let item = plan.items[index]
            guard item.entry.platform != .android else { return [LinkTestResult]() }
            return evaluate(item, app: item.entry.app ?? app ?? defaultApp, loaded: loaded, scratch: &scratch)
        }
        // Android entries in list order: their matchers and coverage build up as they go.
        var android = AndroidRunState()
        for (index, item) in plan.items.enumerated() where item.entry.platform == .android {
            perItem[index] = [evaluateAndroid(item, package: item.entry.package ?? defaultPackage, state: &android)]
        }
        var state = RunState()
        for (item, results) in zip(plan.items, perItem) where item.entry.platform != .android {
            gather(results, app: item.entry.app ?? app ?? defaultApp, loaded: loaded, state: &state)
        }
        var warnings = plan.warnings + state.warnings
        if coverage { warnings += android.coverage.warnings }
        var uncovered: [UncoveredRule]?
        if coverage {
            let rules = state.coverage.uncovered
            uncovered = rules
            warnings += rules.map(\.warning)
        }
        return LinkTestReport(
            results: perItem.flatMap { $0 },
            warnings: warnings,
            skipped: plan.skipped,
            uncoveredRules: uncovered
        )
    }

    /// A usable file of the run with its matcher, compiled once.
    private struct LoadedSite: Sendable {
        var name: String
        var file: AASAFile
        var matcher: AASAMatcher
        /// The file's `applinks` app IDs, listed once rather than per URL.
        var appIDs: [String]
    }

    /// The usable files serving the hosts of the Apple entries of `items`, by site key.
    private func loadedSites(_ items: [LinkTestPlan.Item]) -> [String: LoadedSite] {
        var loaded: [String: LoadedSite] = [:]
        var hosts: Set<String> = []
        for item in items {
            guard item.entry.platform != .android, case .success(let url) = item.url, hosts.insert(url.host).inserted,
                let (key, site) = sites.site(for: url.host), loaded[key] == nil, let file = site.file
            else { continue }
            loaded[key] = LoadedSite(
                name: site.name,
                file: file,
                matcher: AASAMatcher(file: file),
                appIDs: file.appLinksAppIDs
            )
        }
        return loaded
    }

    /// What a run accumulates besides results.
    private struct RunState {
        var coverage = LinkCoverage()
        var warnings: [Diagnostic] = []
        var ambiguityWarned: Set<String> = []
    }

    /// The warning about a bundle ID naming several apps (once per site and
    /// app), and the coverage of one item's results.
    private func gather(
        _ results: [LinkTestResult],
        app: LinkTestApp?,
        loaded: [String: LoadedSite],
        state: inout RunState
    ) {
        guard let key = results.first?.site, let site = loaded[key] else { return }
        let appIDs = results.compactMap(\.appID)
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
        guard coverage else { return }
        for result in results {
            guard let appID = result.appID else { continue }
            state.coverage.tested(appID, site: key, name: site.name, file: site.file)
            if let rule = result.rule, result.url?.scheme == "https" { state.coverage.decided(rule, site: key) }
        }
    }

    private func evaluate(
        _ item: LinkTestPlan.Item,
        app: LinkTestApp?,
        loaded: [String: LoadedSite],
        scratch: inout MatchScratch
    ) -> [LinkTestResult] {
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
            let message = LinkTestSites.Site.noAssociationFile(host: host)
            return [LinkTestResult(entry: entry, url: url, site: key, failure: .noFile, message: message)]
        case .file(let usable):
            file = usable
        }
        // Every usable file of the run is in `loaded` (built from the same items).
        let loadedSite = loaded[key]
        let listed = loadedSite?.appIDs ?? file.appLinksAppIDs
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
        return appIDs.map { appID in
            var steps = 0
            let matcher = loadedSite?.matcher ?? AASAMatcher(file: file)
            let result = matcher.evaluate(url, appID: appID, steps: &steps, scratch: &scratch)
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
