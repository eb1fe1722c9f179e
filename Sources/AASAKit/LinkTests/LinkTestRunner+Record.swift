extension LinkTestRunner {
    /// The lean record of `item` for the first app ID of its file that is
    /// `app`; ``LinkTestRecord/rare`` for anything but the usual outcome (a
    /// rule or none decided, without notes, and no explanation owed), which
    /// ``evaluate(_:app:appIndex:loaded:scratch:)`` then makes whole.
    func record(
        _ item: UnsafePointer<LinkTestPlan.Item>,
        app: LinkTestApp?,
        loaded: [String: LoadedSite],
        scratch: inout EvaluationScratch
    ) -> LinkTestRecord {
        guard let url = item.pointee.parsed,
            let site = scratch.site(for: url.host, sites: sites, loaded: loaded)?.loaded, site.slot >= 0,
            let appIndex = site.appIDs.firstIndex(where: { app?.matches(appID: $0) == true })
        else { return .rare }
        var steps = 0
        let rule: Int32
        let decision: MatchDecision
        switch site.matcher.verdict(url, appID: site.appIDs[appIndex], steps: &steps, scratch: &scratch.match) {
        case .decided(let detail, let position):
            rule = site.rule(detail: detail, position: position)
            decision = site.decided[Int(rule)].decision
        case .noRule:
            (rule, decision) = (-1, .none)
        case .other:
            return .rare
        }
        let failure = Self.failure(expecting: item.pointee.entry.expectation, scheme: url.scheme, decision: decision)
        // An unhandled URL owes its explanation: a whole result.
        guard failure != .unhandled else { return .rare }
        return LinkTestRecord(
            side: -1,
            site: Int32(site.slot),
            app: Int32(appIndex),
            rule: rule,
            decision: decision,
            failure: failure,
            isHTTP: url.scheme == "http"
        )
    }
}
