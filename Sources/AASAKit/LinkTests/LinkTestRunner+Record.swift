extension LinkTestRunner {
    /// The lean record of `item` for the first app ID of its file that is
    /// its own app or else `app`; ``LinkTestRecord/rare`` for anything but
    /// the usual outcome (a rule or none decided, without notes, and no
    /// explanation owed), which ``evaluate(_:app:appIndex:loaded:scratch:)``
    /// then makes whole.
    ///
    /// The site is read through the scratch's ``EvaluationScratch/LeanSite``
    /// of the last host and app: resolving it per URL retained the site,
    /// its app IDs and its matcher from every core and looked the app ID up.
    func record(
        _ item: UnsafePointer<LinkTestPlan.Item>,
        app: LinkTestApp?,
        loaded: [String: LoadedSite],
        scratch: inout EvaluationScratch
    ) -> LinkTestRecord {
        item.withItemInPlace { inPlace in
            record(item, inPlace: inPlace, app: app, loaded: loaded, scratch: &scratch)
        }
    }

    /// ``record(_:app:loaded:scratch:)`` of the item's URL, passed on in
    /// place: bound here, it was copied.
    @inline(never)
    private func record(
        _ item: UnsafePointer<LinkTestPlan.Item>,
        inPlace: borrowing LinkTestPlan.ItemInPlace,
        app: LinkTestApp?,
        loaded: [String: LoadedSite],
        scratch: inout EvaluationScratch
    ) -> LinkTestRecord {
        record(item, url: inPlace.item.parsed, app: app, loaded: loaded, scratch: &scratch)
    }

    /// ``record(_:app:loaded:scratch:)`` of the item's URL, bound where it
    /// lies. Not inlined: inlined, the borrow became a copy again.
    @inline(never)
    private func record(
        _ item: UnsafePointer<LinkTestPlan.Item>,
        url parsed: borrowing AASAURL?,
        app: LinkTestApp?,
        loaded: [String: LoadedSite],
        scratch: inout EvaluationScratch
    ) -> LinkTestRecord {
        switch parsed {
        case .some(let url):
            return record(item, url: url, app: app, loaded: loaded, scratch: &scratch)
        case .none:
            return .rare
        }
    }

    private func record(
        _ item: UnsafePointer<LinkTestPlan.Item>,
        url: borrowing AASAURL,
        app: LinkTestApp?,
        loaded: [String: LoadedSite],
        scratch: inout EvaluationScratch
    ) -> LinkTestRecord {
        if !scratch.leanSiteServes(url.host, app: item.pointee.entry.app) {
            guard let site = scratch.site(for: url.host, sites: sites, loaded: loaded)?.loaded,
                site.slot >= 0
            else { return .rare }
            let app = item.pointee.entry.app ?? app
            guard let appIndex = site.appIDs.firstIndex(where: { app?.matches(appID: $0) == true }) else {
                return .rare
            }
            scratch.lean = EvaluationScratch.LeanSite(
                host: url.host,
                entryApp: item.pointee.entry.app,
                site: .passUnretained(site),
                appIndex: appIndex,
                detail: site.matcher.detail(listing: site.appIDs[appIndex]),
                matcher: site.matcher.unretainedCompiled
            )
        }
        // Trivial fields: read without retaining the cached strings.
        let (site, appIndex, detail) = (scratch.lean!.site, scratch.lean!.appIndex, scratch.lean!.detail)
        let matcher = scratch.lean!.matcher
        // `loaded` keeps the site for the whole run.
        return site._withUnsafeGuaranteedRef { site in
            var steps = 0
            let rule: Int32
            let decision: MatchDecision
            let verdict = matcher._withUnsafeGuaranteedRef { matcher in
                matcher.verdict(url, detail: detail, steps: &steps, scratch: &scratch.match)
            }
            switch verdict {
            case .decided(let detail, let position):
                rule = site.rule(detail: detail, position: position)
                decision = site.decided[Int(rule)].decision
            case .noRule:
                (rule, decision) = (-1, .none)
            case .other:
                return .rare
            }
            let failure = Self.failure(
                expecting: item.pointee.entry.expectation,
                isHTTP: item.pointee.isHTTP,
                decision: decision
            )
            // An unhandled URL owes its explanation: a whole result.
            guard failure != .unhandled else { return .rare }
            return LinkTestRecord(
                side: -1,
                site: Int32(site.slot),
                app: Int32(appIndex),
                rule: rule,
                decision: decision,
                failure: failure,
                isHTTP: item.pointee.isHTTP
            )
        }
    }
}
