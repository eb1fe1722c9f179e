/// One URL to decide for one app.
public struct MatchRequest: Sendable {
    public var url: AASAURL
    public var appID: String

    /// A URL and the app to decide it for.
    public init(url: AASAURL, appID: String) {
        self.url = url
        self.appID = appID
    }
}

/// Lists of URLs: the results of ``AASAMatcher/evaluate(_:appID:)`` for
/// each, in order, computed across the cores when the list is long
/// (thousands of URLs) unless `parallel` is `false`; each thread reuses one
/// set of buffers, so a URL allocates nothing but its result's notes.
extension AASAMatcher {
    /// ``evaluate(_:appID:)`` for every URL, results in the same order.
    public func evaluate(_ urls: [AASAURL], appID: String, parallel: Bool = true) -> [MatchResult] {
        ParallelBatch.map(count: urls.count, parallel: parallel, state: MatchScratch.init) { index, scratch in
            var steps = 0
            return evaluate(urls[index], appID: appID, steps: &steps, scratch: &scratch)
        }
    }

    /// ``evaluate(_:appID:)`` for every request, results in the same order.
    public func evaluate(_ requests: [MatchRequest], parallel: Bool = true) -> [MatchResult] {
        ParallelBatch.map(count: requests.count, parallel: parallel, state: MatchScratch.init) { index, scratch in
            var steps = 0
            return evaluate(requests[index].url, appID: requests[index].appID, steps: &steps, scratch: &scratch)
        }
    }
}

extension AASAURL {
    /// ``init(_:)`` for every string, results in the same order; across the
    /// cores when the list is long unless `parallel` is `false`.
    public static func parse(_ strings: [String], parallel: Bool = true) -> [Result<AASAURL, AASAURLError>] {
        let parse: @Sendable (Int, inout Void) -> Result<AASAURL, AASAURLError> = { index, _ in
            Result { () throws(AASAURLError) in try AASAURL(strings[index]) }
        }
        return ParallelBatch.map(count: strings.count, parallel: parallel, state: {}, parse)
    }
}
