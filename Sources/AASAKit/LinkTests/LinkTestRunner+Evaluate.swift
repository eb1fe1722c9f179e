/// One entry against its host's file, for one app: what the system decides
/// and whether that is what the entry expects.
extension LinkTestRunner {
    /// The result of `item` for the `appIndex`-th app ID of its file that is
    /// `app`; `nil` past the last. A test that cannot run is one result, at
    /// `appIndex` 0.
    func evaluate(
        _ item: LinkTestPlan.Item,
        app: LinkTestApp?,
        appIndex: Int,
        loaded: [String: LoadedSite],
        scratch: inout MatchScratch
    ) -> LinkTestResult? {
        let entry = item.entry
        let url: AASAURL
        // Why a test cannot run is said once, with the first app.
        switch item.url {
        case .failure(let error):
            guard appIndex == 0 else { return nil }
            return LinkTestResult(entry: entry, failure: .invalidURL, message: error.description)
        case .success(let parsed):
            url = parsed
        }
        guard let (key, site) = sites.site(for: url.host) else {
            guard appIndex == 0 else { return nil }
            let known = sites.hostNames.joined(separator: ", ")
            return LinkTestResult(
                entry: entry,
                url: url,
                failure: .noFile,
                message: "no association file serves \(url.host) (files for: \(known))"
            )
        }
        let file: AASAFile
        switch site.content {
        case .unusable(let reason):
            guard appIndex == 0 else { return nil }
            return LinkTestResult(entry: entry, url: url, site: key, failure: .fileUnusable, message: reason)
        case .absent(let host):
            guard appIndex == 0 else { return nil }
            let message = LinkTestSites.Site.noAssociationFile(host: host)
            return LinkTestResult(entry: entry, url: url, site: key, failure: .noFile, message: message)
        case .file(let usable):
            file = usable
        }
        // Every usable file of the run is in `loaded` (built from the same items).
        let loadedSite = loaded[key]
        let listed = loadedSite?.appIDs ?? file.appLinksAppIDs
        // Lazily: a URL allocates no list of one app ID.
        let appIDs = listed.lazy.filter { app?.matches(appID: $0) == true }
        guard !appIDs.isEmpty else {
            guard appIndex == 0 else { return nil }
            let listing = listed.isEmpty ? "it lists no app" : "listed: \(listed.joined(separator: ", "))"
            let name = app.map { "\($0)" } ?? "no app"
            return LinkTestResult(
                entry: entry,
                url: url,
                site: key,
                failure: .appNotListed,
                message: "\(name) is not in applinks.details of \(site.name) (\(listing))"
            )
        }
        guard let appID = appIDs.dropFirst(appIndex).first else { return nil }
        var steps = 0
        let matcher = loadedSite?.matcher ?? AASAMatcher(file: file)
        let result = matcher.evaluate(url, appID: appID, steps: &steps, scratch: &scratch)
        return Self.judge(entry, url: url, site: key, appID: appID, result: result, file: file)
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
