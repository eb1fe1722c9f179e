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
        let loaded = plan.items.withUnsafeBufferPointer(loadedSites)
        // Each Apple item's first result, across the cores for a long list,
        // straight into the report's array (an Android item's place is filled
        // below); what a run accumulates is gathered after, in list order.
        var results: [LinkTestResult] = ParallelBatch.map(
            count: plan.items.count,
            parallel: true,
            state: EvaluationScratch.init
        ) {
            index,
            scratch in
            // Items are read in place, through the buffer: the array's getter
            // copies the item, a retain of every field of the entry and the
            // URL, from both cores at once.
            plan.items.withUnsafeBufferPointer { items in
                let pending = { LinkTestResult(entry: items[index].entry, failure: nil, message: "") }
                guard items[index].entry.platform != .android else { return pending() }
                let app = items[index].entry.app ?? app ?? defaultApp
                // The first app always has a result: its decision, or why none.
                return evaluate(items[index], app: app, appIndex: 0, loaded: loaded, scratch: &scratch) ?? pending()
            }
        }
        // Android entries in list order: their matchers and coverage build up as they go.
        var android = AndroidRunState()
        for index in plan.itemIndices(where: { $0.platform == .android }) {
            let item = plan.items[index]
            results[index] = evaluateAndroid(item, package: item.entry.package ?? defaultPackage, state: &android)
        }
        // A bundle ID naming several apps of a file: one result per app.
        var more: [Int: [LinkTestResult]] = [:]
        var scratch = EvaluationScratch()
        var state = RunState()
        for index in plan.itemIndices(where: { $0.platform != .android }) {
            let app = plan.items[index].entry.app ?? app ?? defaultApp
            if app?.isBundleID == true, results[index].appID != nil {
                var appIndex = 1
                while let next = evaluate(
                    plan.items[index],
                    app: app,
                    appIndex: appIndex,
                    loaded: loaded,
                    scratch: &scratch
                ) {
                    more[index, default: []].append(next)
                    appIndex += 1
                }
            }
            // Without coverage, only a bundle ID naming several apps has
            // anything to gather (its warning).
            guard coverage || more[index] != nil else { continue }
            gather(results[index], more: more[index] ?? [], app: app, loaded: loaded, state: &state)
        }
        if !more.isEmpty {
            results = results.indices.flatMap { [results[$0]] + (more[$0] ?? []) }
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
            results: results,
            warnings: warnings,
            skipped: plan.skipped,
            uncoveredRules: uncovered
        )
    }

    /// A usable file of the run with its matcher, compiled once. A class:
    /// every URL of the list reads it, from every core, and a copy of the
    /// struct retained each of the file's and the matcher's buffers.
    final class LoadedSite: Sendable {
        let name: String
        let file: AASAFile
        let matcher: AASAMatcher
        /// The file's `applinks` app IDs, listed once rather than per URL.
        let appIDs: [String]

        init(name: String, file: AASAFile, matcher: AASAMatcher, appIDs: [String]) {
            self.name = name
            self.file = file
            self.matcher = matcher
            self.appIDs = appIDs
        }
    }

    /// The usable files serving the hosts of the Apple entries of `items`, by site key.
    private func loadedSites(_ items: UnsafeBufferPointer<LinkTestPlan.Item>) -> [String: LoadedSite] {
        var loaded: [String: LoadedSite] = [:]
        var hosts: Set<String> = []
        var lastHost: String?
        // In place (a copy of an item retains each of its fields), and a
        // host hashed only when it differs from the URL before: a list's
        // URLs are mostly of one host.
        for index in items.indices {
            guard items[index].entry.platform != .android, let host = items[index].host, host != lastHost
            else { continue }
            lastHost = host
            guard hosts.insert(host).inserted, let (key, site) = sites.site(for: host), loaded[key] == nil,
                let file = site.file
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
        _ first: LinkTestResult,
        more: [LinkTestResult],
        app: LinkTestApp?,
        loaded: [String: LoadedSite],
        state: inout RunState
    ) {
        guard let key = first.site, let site = loaded[key] else { return }
        if !more.isEmpty, let app, state.ambiguityWarned.insert("\(key) \(app)").inserted {
            let appIDs = ([first] + more).compactMap(\.appID)
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
        for result in [first] + more {
            guard let appID = result.appID else { continue }
            state.coverage.tested(appID, site: key, name: site.name, file: site.file)
            if let rule = result.rule, result.url?.scheme == "https" { state.coverage.decided(rule, site: key) }
        }
    }
}
