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
    /// Files compiled before the run (``LinkTestCompiledFiles``); the run
    /// compiles the files it needs that are not among them.
    public var compiledAhead: LinkTestCompiledFiles?

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
        try start(expectations, app: app, package: package).report()
    }

    /// ``run(_:app:package:)`` under way: its records are made on other
    /// threads while the caller renders the results already made
    /// (``LinkTestRun``). Throws what `run` throws, before any URL is matched.
    public func start(
        _ expectations: LinkExpectations,
        app: LinkTestApp? = nil,
        package: String? = nil
    ) throws(LinkTestSetupError) -> LinkTestRun {
        let plan = try LinkTestPlan(expectations, sites: sites, domain: domain)
        // The plan's warnings, then the list's (duplicates, http URLs), made
        // for a long list on a thread of their own while this one checks
        // the apps and the records take the cores: made before them, they
        // held one core while the other had nothing to do.
        let planWarnings = BackgroundValue(background: plan.items.count >= ParallelBatch.minimumChunk) {
            [items = plan.items, warnings = plan.warnings] in
            var all = warnings
            LinkTestPlan.appendListWarnings(items, to: &all)
            return all
        }
        let defaultApp = try plan.checkApps(app)
        let defaultPackage = try plan.checkPackages(package, sites: sites)
        let loaded = plan.items.withUnsafeBufferPointer(loadedSites)
        let runApp = app ?? defaultApp
        // Each Apple item's record for its first app, across the cores for a
        // long list: a few integers, or `rare` for what needs a whole result.
        let table = LinkTestRecordTable(count: plan.items.count) { [self, items = plan.items] index, scratch in
            // Items are read in place, through the buffer: the array's getter
            // copies the item, a retain of every field of the entry and the
            // URL, from both cores at once.
            items.withUnsafeBufferPointer { items in
                let item = items.baseAddress! + index
                guard item.pointee.entry.platform != .android else { return .rare }
                // The entry's own app is `record`'s to read: `??` here copied
                // the run's app per URL (its string retained from both cores).
                return record(item, app: runApp, loaded: loaded, scratch: &scratch)
            }
        }
        let bySlot = loaded.values.sorted { $0.slot < $1.slot }
        return LinkTestRun(
            progress: .init(
                runner: self,
                plan: plan,
                lean: LinkTestRecords(items: plan.items, table: table, sites: bySlot),
                loaded: loaded,
                inputs: (given: app, default: defaultApp, package: defaultPackage),
                planWarnings: planWarnings
            )
        )
    }

    /// The Apple items that may have more to gather than their record: all
    /// of them with coverage, else those tested for a bundle ID (which may
    /// name several apps of a file). A run for one app ID without coverage
    /// has none: it no longer copies each of its items to find that out.
    func gatheredIndices(_ plan: LinkTestPlan, app: LinkTestApp?) -> [Int] {
        if coverage { return plan.itemIndices { $0.pointee.entry.platform != .android } }
        let runsBundleID = app?.isBundleID == true
        return plan.itemIndices { Self.testsBundleID($0, runsBundleID: runsBundleID) }
    }

    /// Whether `item` is an Apple entry tested for a bundle ID, which may
    /// name several apps of a file (each then a result of its own).
    ///
    /// Only the two fields asked, read in place: the loop's
    /// `plan.items[index]` and a test of the entry each copied an item or an
    /// entry (a retain of each of its fields) for every URL, and
    /// `(entry.app ?? app)` copied the entry's app; a case test reads it
    /// where it lies.
    static func testsBundleID(_ item: UnsafePointer<LinkTestPlan.Item>, runsBundleID: Bool) -> Bool {
        guard item.pointee.entry.platform != .android else { return false }
        switch item.pointee.entry.app {
        case .bundleID?: return true
        case .appID?: return false
        case nil: return runsBundleID
        }
    }

    /// What a run accumulates besides results.
    struct RunState {
        var coverage = LinkCoverage()
        var warnings: [Diagnostic] = []
        var ambiguityWarned: Set<String> = []
    }

    /// The warning about a bundle ID naming several apps (once per site and
    /// app), and the coverage of one item's results.
    func gather(
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
