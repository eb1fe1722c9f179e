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

extension LinkTestRecord {
    /// What a result's line says besides its URL (site, app, rule,
    /// decision, expectation, failure): the key under which the text and
    /// JSON reports keep each rendered piece once per chunk.
    struct OutcomeKey: Hashable {
        var site: Int32
        var app: Int32
        var rule: Int32
        var decision: MatchDecision
        var expectation: LinkExpectations.Expectation
        var failure: LinkTestFailure?

        init(_ record: LinkTestRecord, expectation: LinkExpectations.Expectation) {
            site = record.site
            app = record.app
            rule = record.rule
            decision = record.decision
            self.expectation = expectation
            failure = record.failure
        }

        /// How many places ``slot`` spreads the keys over.
        static let slots = 1_024

        /// The key's place in a renderer's direct-mapped table of recent
        /// keys: its rule's, so that the rules of a file (a few hundred)
        /// each have their own.
        var slot: Int {
            Int(UInt32(bitPattern: rule &+ 1 &+ site &* 40_503)) & (Self.slots - 1)
        }

        // The integers only: the enums hash their raw strings, which cost
        // more than the piece they look up. Keys that differ only there
        // share a bucket and are told apart by `==`.
        func hash(into hasher: inout Hasher) {
            hasher.combine(site)
            hasher.combine(app)
            hasher.combine(rule)
        }
    }
}
