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

extension AASAMatcher {
    /// ``evaluate(_:appID:)`` for every URL, results in the same order.
    public func evaluate(_ urls: [AASAURL], appID: String) -> [MatchResult] {
        var scratch = MatchScratch()
        var steps = 0
        return urls.map { evaluate($0, appID: appID, steps: &steps, scratch: &scratch) }
    }

    /// ``evaluate(_:appID:)`` for every request, results in the same order.
    public func evaluate(_ requests: [MatchRequest]) -> [MatchResult] {
        var scratch = MatchScratch()
        var steps = 0
        return requests.map { evaluate($0.url, appID: $0.appID, steps: &steps, scratch: &scratch) }
    }
}

extension AASAURL {
    /// Parses every string, results in the same order.
    public static func parse(_ strings: [String]) -> [Result<AASAURL, AASAURLError>] {
        strings.map { string in Result { () throws(AASAURLError) in try AASAURL(string) } }
    }
}
