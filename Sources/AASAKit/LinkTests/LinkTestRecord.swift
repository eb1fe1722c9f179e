/// One URL's outcome in the lean form of a run: a few integers into the
/// run's tables, where a ``LinkTestResult`` holds a dozen strings that a
/// long list copied, retained and released per URL, from every core.
///
/// The usual outcome, an Apple entry decided by its host's rules for one
/// app without notes or explanation, is only this record; anything else
/// (an Android entry, a URL that cannot be tested, notes, the explanation
/// of an unhandled URL) is a whole ``LinkTestResult`` in the side table.
struct LinkTestRecord: Sendable {
    /// The place of the whole result in ``LinkTestRecords/side``; -1 for a
    /// lean record.
    var side: Int32
    /// The place of the site in ``LinkTestRecords/sites``.
    var site: Int32
    /// The place of the app ID in the site's ``LinkTestRunner/LoadedSite/appIDs``.
    var app: Int32
    /// The deciding rule's place in the site's
    /// ``LinkTestRunner/LoadedSite/decided``; -1 when no rule matched.
    var rule: Int32
    var decision: MatchDecision
    /// `nil` when the test passed.
    var failure: LinkTestFailure?
    /// Whether the URL is `http://` (``LinkTestResult/isHTTP``).
    var isHTTP: Bool

    /// A record whose result the run has yet to make whole.
    static let rare = LinkTestRecord(
        side: .max,
        site: -1,
        app: -1,
        rule: -1,
        decision: .none,
        failure: nil,
        isHTTP: false
    )

    var isLean: Bool { side < 0 }
}
