/// The decisions of a list of URLs for a few apps, one number per URL and
/// app: the deciding rule, no rule, or a result of its own (notes, a host
/// the file does not serve, an app it does not list).
///
/// A list's results are nearly all the result a rule builds once
/// (``AASAMatcher/decided(detail:position:)``) or "no rule matched". As
/// one ``MatchResult`` per URL, each was a copy retaining the rule's shared
/// storage and strings from every core, and a release of each at the end:
/// reference counts on a few cache lines the cores fought over. A reader
/// that renders the same text for the same rule asks ``sharedKey(at:app:)``
/// and makes the text once.
public struct MatchVerdicts: Sendable {
    /// How many apps each URL was decided for: the `appIDs` given.
    public let appCount: Int
    /// `detail << 32 | position` of the deciding rule, ``noRule``, or
    /// `-2 - i` for `side[i]`; URL-major, `appCount` per URL.
    private let codes: [Int64]
    private let side: [MatchResult]
    private let matcher: AASAMatcher

    private static var noRule: Int64 { -1 }
    /// A result of its own, before the serial pass gives it its place.
    private static var pending: Int64 { .min }

    /// The result for the `index`-th URL and the app at `app`: what
    /// ``AASAMatcher/evaluate(_:appID:)`` returns for them.
    public func result(at index: Int, app: Int) -> MatchResult {
        let code = codes[index * appCount + app]
        if code >= 0 { return matcher.decided(detail: Int(code >> 32), position: Int(code & 0xFFFF_FFFF)) }
        if code == Self.noRule { return MatchResult(decision: .none, reason: AASAMatcher.noRuleMatched) }
        return side[Int(-2 - code)]
    }

    /// The same key for two results that are the same by construction
    /// (one rule decided both, or no rule matched either, without notes);
    /// `nil` for a result of its own.
    public func sharedKey(at index: Int, app: Int) -> Int64? {
        let code = codes[index * appCount + app]
        return code >= Self.noRule ? code : nil
    }

    /// Decides the URLs that `urls` holds at `indices` (every one when
    /// `nil`), for each of `appIDs`: the `k`-th of them is the verdicts'
    /// `k`-th URL. Across the cores for a long list; a `nil` URL decides
    /// nothing (its results must not be read).
    init(matcher: AASAMatcher, urls: [AASAURL?], indices: [Int32]?, appIDs: [String]) {
        let details = appIDs.map(matcher.detail(listing:))
        let appCount = appIDs.count
        let count = (indices?.count ?? urls.count) * appCount
        let compiled = matcher.unretainedCompiled
        var codes: [Int64] = ParallelBatch.map(count: count, parallel: true, state: MatchScratch.init) {
            slot,
            scratch in
            let position = indices.map { Int($0[slot / appCount]) } ?? slot / appCount
            // Read in place: the array's getter copied the optional URL.
            return urls.withUnsafeBufferPointer { urls in
                guard let url = urls[position] else { return Self.noRule }
                var steps = 0
                let verdict = compiled._withUnsafeGuaranteedRef { compiled in
                    compiled.verdict(url, detail: details[slot % appCount], steps: &steps, scratch: &scratch)
                }
                switch verdict {
                case .decided(let detail, let position): return Int64(detail) << 32 | Int64(position)
                case .noRule: return Self.noRule
                case .other: return Self.pending
                }
            }
        }
        // The rare results of their own, made again on this thread in
        // order: a chunk of the batch has nowhere to keep them.
        var side: [MatchResult] = []
        var scratch = MatchScratch()
        for slot in codes.indices where codes[slot] == Self.pending {
            let position = indices.map { Int($0[slot / appCount]) } ?? slot / appCount
            var steps = 0
            let verdict = compiled._withUnsafeGuaranteedRef { compiled in
                compiled.verdict(urls[position]!, detail: details[slot % appCount], steps: &steps, scratch: &scratch)
            }
            guard case .other(let result) = verdict else { preconditionFailure("a verdict changed between passes") }
            codes[slot] = -2 - Int64(side.count)
            side.append(result)
        }
        (self.appCount, self.codes, self.side, self.matcher) = (appCount, codes, side, matcher)
    }
}

extension AASAMatcher {
    /// ``MatchVerdicts`` of `urls` (those at `indices` when given; a `nil`
    /// URL is skipped) for each of `appIDs`, across the cores.
    public func verdicts(_ urls: [AASAURL?], at indices: [Int32]? = nil, appIDs: [String]) -> MatchVerdicts {
        MatchVerdicts(matcher: self, urls: urls, indices: indices, appIDs: appIDs)
    }
}
