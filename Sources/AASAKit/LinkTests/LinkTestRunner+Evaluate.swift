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
        scratch: inout EvaluationScratch
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
        guard let resolved = scratch.site(for: url.host, sites: sites, loaded: loaded) else {
            guard appIndex == 0 else { return nil }
            let known = sites.hostNames.joined(separator: ", ")
            return LinkTestResult(
                entry: entry,
                url: url,
                failure: .noFile,
                message: "no association file serves \(url.host) (files for: \(known))"
            )
        }
        let key = resolved.key
        guard let loadedSite = resolved.loaded else {
            guard appIndex == 0 else { return nil }
            return LinkTestResult(
                entry: entry,
                url: url,
                site: key,
                failure: resolved.failure,
                message: resolved.reason
            )
        }
        let listed = loadedSite.appIDs
        // Lazily: a URL allocates no list of one app ID.
        let appIDs = listed.lazy.filter { app?.matches(appID: $0) == true }
        guard let appID = appIDs.dropFirst(appIndex).first else {
            guard appIndex == 0 else { return nil }
            let listing = listed.isEmpty ? "it lists no app" : "listed: \(listed.joined(separator: ", "))"
            let name = app.map { "\($0)" } ?? "no app"
            return LinkTestResult(
                entry: entry,
                url: url,
                site: key,
                failure: .appNotListed,
                message: "\(name) is not in applinks.details of \(resolved.site.name) (\(listing))"
            )
        }
        var steps = 0
        let result = loadedSite.matcher.evaluate(url, appID: appID, steps: &steps, scratch: &scratch.match)
        return Self.judge(entry, url: url, site: key, appID: appID, result: result, file: loadedSite.file)
    }

    private static func judge(
        _ entry: LinkExpectations.Entry,
        url: AASAURL,
        site: String,
        appID: String,
        result: MatchResult,
        file: AASAFile
    ) -> LinkTestResult {
        let failure = Self.failure(
            expecting: entry.expectation,
            isHTTP: url.scheme == "http",
            decision: result.decision
        )
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

extension LinkTestRunner {
    /// Whether `decision` fails an entry expecting `expectation`, for an
    /// `http` URL or an `https` one (a flag: the records have it made).
    static func failure(
        expecting expectation: LinkExpectations.Expectation,
        isHTTP: Bool,
        decision: MatchDecision
    ) -> LinkTestFailure? {
        switch (expectation, decision) {
        case (.matched, _) where isHTTP:
            return .httpScheme
        case (_, _) where isHTTP:
            // The browser opens, which is all such an entry can ask; a
            // warning says it tests no rule.
            return nil
        case (.matched, .matched), (.blocked, .blocked), (.none, .none), (.notMatched, .blocked), (.notMatched, .none):
            return nil
        case (.matched, .none), (.blocked, .none):
            return .unhandled
        case (.matched, .blocked), (.none, .blocked):
            return .excluded
        case (.blocked, .matched), (.none, .matched), (.notMatched, .matched):
            return .incorrectlyHandled
        }
    }
}

/// What evaluating entries reuses from one URL to the next: the matcher's
/// buffers, and the site of the last host (a list's URLs are mostly of one
/// host), so that a URL neither hashes its host nor copies the site.
struct EvaluationScratch {
    var match = MatchScratch()
    private var lastHost: String?
    private var lastSite: ResolvedSite?
    /// What ``LinkTestRunner/record(_:app:loaded:scratch:)`` resolved for
    /// the last host and entry app.
    var lean: LeanSite?

    /// A usable site of a lean record and the app's places in it.
    struct LeanSite {
        var host: String
        /// The entry's own app; `nil` for the run's.
        var entryApp: LinkTestApp?
        /// Unretained: the run's loaded sites keep it.
        var site: Unmanaged<LinkTestRunner.LoadedSite>
        var appIndex: Int
        /// The first detail listing the app ID (``AASAMatcher/detail(listing:)``).
        var detail: Int?
        /// The site's matcher tables, unretained like `site`.
        var matcher: Unmanaged<CompiledMatcher>
    }

    /// Whether ``lean`` is for `host` and an entry naming `app` (`nil`: the
    /// run's app), compared in place.
    @inline(__always)
    func leanSiteServes(_ host: String, app: LinkTestApp?) -> Bool {
        lean != nil && lean!.host == host && lean!.entryApp == app
    }

    /// The file serving `host`; `nil` when none does.
    mutating func site(
        for host: String,
        sites: LinkTestSites,
        loaded: [String: LinkTestRunner.LoadedSite]
    ) -> ResolvedSite? {
        if let lastHost, lastHost == host { return lastSite }
        let resolved = sites.site(for: host).map { key, site in
            ResolvedSite(key: key, site: site, loaded: loaded[key])
        }
        lastHost = host
        lastSite = resolved
        return resolved
    }
}

/// The file serving a host, with its compiled matcher when usable.
final class ResolvedSite: Sendable {
    /// The host, or its `*.` wildcard, or the file's name.
    let key: String
    let site: LinkTestSites.Site
    /// The file and its matcher; `nil` when the system cannot use the file.
    let loaded: LinkTestRunner.LoadedSite?
    /// Why no URL of the host opens an app, when ``loaded`` is `nil`.
    let failure: LinkTestFailure
    let reason: String

    /// Every usable file of the run is in `loaded` (built from the same
    /// items); one that is not is compiled here rather than trusted to be.
    init(key: String, site: LinkTestSites.Site, loaded: LinkTestRunner.LoadedSite?) {
        self.key = key
        self.site = site
        switch site.content {
        case .file(let file):
            self.loaded =
                loaded
                ?? LinkTestRunner.LoadedSite(key: key, name: site.name, file: file, slot: -1)
            (failure, reason) = (.fileUnusable, "")
        case .unusable(let reason):
            self.loaded = nil
            (failure, self.reason) = (.fileUnusable, reason)
        case .absent(let host):
            self.loaded = nil
            (failure, reason) = (.noFile, LinkTestSites.Site.noAssociationFile(host: host))
        }
    }
}
