extension LinkTestRunner {
    /// The apps a run's results will be for (``LinkTestReport/apps``), from
    /// the plan alone, for a run whose results are its records (one per
    /// entry, the first app of each): the text report's first line names
    /// the app when there is one, and every line names it when there are
    /// several, so this is known before the first result is written.
    ///
    /// An Apple entry's result is for the first app ID of its host's usable
    /// file that is the entry's app (else `app`); none when its URL does not
    /// parse, no usable file serves the host or the file lists no such app.
    /// An Android entry's is for its package, else `package`, whatever its
    /// URL. So the apps are decided per host and entry app, not per URL.
    func plannedApps(
        _ items: UnsafeBufferPointer<LinkTestPlan.Item>,
        app: LinkTestApp?,
        package: String?,
        loaded: [String: LoadedSite]
    ) -> Set<String> {
        var apps: Set<String> = []
        var scratch = EvaluationScratch()
        // Whether the last URL that parsed was an Apple entry's, and its
        // entry's app: a URL with the same host (``LinkTestPlan/Item/hostRepeats``)
        // and entry app has the same app, found without reading the host.
        var lastParsedIsApple = false
        var lastEntryApp: LinkTestApp?
        for index in items.indices {
            let isApple = items[index].entry.platform != .android
            guard isApple else {
                if let package = items[index].entry.package ?? package { apps.insert(package) }
                if items[index].urlHash != nil { lastParsedIsApple = false }
                continue
            }
            guard items[index].urlHash != nil else { continue }
            let entryApp = items[index].entry.app
            let repeats = items[index].hostRepeats && lastParsedIsApple && entryApp == lastEntryApp
            (lastParsedIsApple, lastEntryApp) = (true, entryApp)
            guard !repeats, let host = items[index].host,
                let site = scratch.site(for: host, sites: sites, loaded: loaded)?.loaded
            else { continue }
            let tested = entryApp ?? app
            if let appID = site.appIDs.first(where: { tested?.matches(appID: $0) == true }) { apps.insert(appID) }
        }
        return apps
    }
}
