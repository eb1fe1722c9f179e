import Testing

@testable import AASAKit

/// ``MatchVerdicts``, the lean decisions of a list: every result it gives
/// back is what ``AASAMatcher/evaluate(_:appID:)`` returns for that URL and
/// app, and two verdicts sharing a key have the same result.
@Suite struct MatchVerdictsTests {
    static let appIDs = [MatcherFixture.appID, "OTHER.app"]

    /// Random rule sets and a list long enough to be decided across the
    /// threads, with lines that have no URL, for every URL or a subset.
    @Test(arguments: [false, true])
    func verdictsAreTheResultsOfEachURL(subset: Bool) throws {
        var random = TestRandom(seed: subset ? 0x7E4D_0001 : 0x7E4D_0000)
        var ruleKeys = 0
        for _ in 0..<6 {
            let file = try MatcherFixture.parse(RandomRules.file(&random))
            // Served for `h`: the random URLs of other hosts have results of their own.
            let matcher = AASAMatcher(file: file).serving(domain: "h")
            let urls: [AASAURL?] = try (0..<3_000).map { index in
                index % 13 == 0 ? nil : try AASAURL(RandomRules.url(&random))
            }
            let indices = subset ? urls.indices.filter { $0 % 3 != 1 && urls[$0] != nil }.map(Int32.init) : nil
            let verdicts = matcher.verdicts(urls, at: indices, appIDs: Self.appIDs)
            #expect(verdicts.appCount == Self.appIDs.count)
            var byKey: [Int64: (decision: MatchDecision, reason: String, rule: JSONPath?)] = [:]
            let positions = indices.map { $0.map(Int.init) } ?? Array(urls.indices)
            for (slot, position) in positions.enumerated() {
                guard let url = urls[position] else { continue }
                for (app, appID) in Self.appIDs.enumerated() {
                    let result = verdicts.result(at: slot, app: app)
                    let one = matcher.evaluate(url, appID: appID)
                    #expect(result.decision == one.decision, "\(url) \(appID)")
                    #expect(result.reason == one.reason && result.notes == one.notes, "\(url) \(appID)")
                    #expect(result.rule?.path == one.rule?.path, "\(url) \(appID)")
                    guard let key = verdicts.sharedKey(at: slot, app: app) else { continue }
                    let seen = byKey[key, default: (one.decision, one.reason, one.rule?.path)]
                    #expect(seen.decision == one.decision && seen.reason == one.reason && seen.rule == one.rule?.path)
                    byKey[key] = seen
                }
            }
            ruleKeys += byKey.keys.filter { $0 >= 0 }.count
        }
        #expect(ruleKeys > 5, "the lists were decided by rules, not only by no rule")
    }

    /// A non-ASCII host of the domain's byte length, spelled another
    /// canonically equivalent way, is served: the byte comparison is only
    /// for ASCII hosts, `String`'s equality decides the others.
    @Test func aHostSpelledAnotherEquivalentWayIsServed() throws {
        let file = try MatcherFixture.parse(#"{"applinks":{"details":[{"appIDs":["T.x"],"components":[{"/":"/*"}]}]}}"#)
        let matcher = AASAMatcher(file: file).serving(domain: "\u{E9}e\u{301}.x")
        let url = try AASAURL("https://e\u{301}\u{E9}.x/a")
        #expect(url.host.utf8.count == "\u{E9}e\u{301}.x".utf8.count)
        #expect(matcher.evaluate(url, appID: "T.x").decision == .matched)
        #expect(matcher.verdicts([url], appIDs: ["T.x"]).result(at: 0, app: 0).decision == .matched)
    }
}
