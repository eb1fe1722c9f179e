import AASAKit

/// Fetches a domain's file from its origin and from Apple's CDN, and
/// compares them (``CDNComparison``).
public struct CDNDiff: Sendable {
    /// Apple's CDN; the domain is appended.
    public static let appleCDNBase = "https://app-site-association.cdn-apple.com/a/v1/"
    /// The CDN headers worth showing on success: where the copy came from and how old it is.
    static let freshnessHeaders = [
        "Apple-From", "Apple-Origin-Format", "Age", "Cache-Control", "Expires", "Last-Modified",
    ]

    public let fetcher: HTTPFetcher
    /// Replaces ``appleCDNBase`` (`--cdn-base`).
    public var cdnBase: String
    /// Replaces `https://<domain>` (`--origin-base`); requests still carry `Host: <domain>`.
    public var originBase: String?

    public init(fetcher: HTTPFetcher, cdnBase: String = CDNDiff.appleCDNBase, originBase: String? = nil) {
        self.fetcher = fetcher
        self.cdnBase = cdnBase.hasSuffix("/") ? cdnBase : cdnBase + "/"
        self.originBase = originBase
    }

    /// Compares one domain; never throws: a failure is an outcome.
    public func compare(_ domain: String) async -> CDNComparison {
        let target: HostTarget
        do {
            target = try HostTarget(domain, baseURL: originBase)
        } catch {
            return CDNComparison(domain: domain, originURL: "", cdnURL: "", outcome: .originError(error.description))
        }
        let originURL = target.url(HostTarget.wellKnownPath)
        let cdnURL = cdnBase + target.host
        async let originResult = fetchJSON(originURL, host: target.hostHeader, fromCDN: false)
        async let cdnResult = fetchJSON(cdnURL, host: nil, fromCDN: true)
        let origin = await originResult
        let cdn = await cdnResult

        var cdnFailure: CDNFailure?
        var cdnHeaders: [(name: String, value: String)] = []
        var cdnJSON: JSONValue?
        switch cdn {
        case .failure(let problem): cdnFailure = problem.failure
        case .success(let (json, response)):
            cdnJSON = json
            cdnHeaders = Self.freshnessHeaders.compactMap { name in response.header(name).map { (name, $0) } }
        }
        let outcome: CDNComparison.Outcome
        switch (origin, cdnJSON, cdnFailure) {
        case (.failure(let problem), _, _):
            outcome = .originError(problem.failure.explanation)
        case (_, _, let failure?):
            outcome = .cdnError(failure)
        case (.success(let (originJSON, _)), let cdnJSON?, nil):
            let diff = JSONDiff(from: originJSON, to: cdnJSON)
            outcome = diff.isEmpty ? .inSync : .differs(diff)
        case (.success, nil, nil):
            outcome = .cdnError(CDNFailure(message: "no CDN answer"))
        }
        return CDNComparison(
            domain: target.host,
            originURL: originURL,
            cdnURL: cdnURL,
            outcome: outcome,
            cdnFailure: cdnFailure,
            cdnHeaders: cdnHeaders
        )
    }

    private struct Problem: Error {
        var failure: CDNFailure
    }

    /// A 200 JSON answer, or why there is none (with the CDN's headers when it answered).
    private func fetchJSON(
        _ url: String,
        host: String?,
        fromCDN: Bool
    ) async -> Result<(JSONValue, FetchedResponse), Problem> {
        let response: FetchedResponse
        do {
            response = try await fetcher.fetch(url, host: host)
        } catch {
            return .failure(Problem(failure: CDNFailure(message: error.description)))
        }
        if response.isRedirect {
            let location = response.header("Location") ?? "(no Location)"
            return .failure(
                Problem(
                    failure: CDNFailure(
                        message: "\(url): \(response.statusLine) redirect to \(location) (not followed)",
                        response: response
                    )
                )
            )
        }
        guard response.status == 200 else {
            guard fromCDN else {
                return .failure(
                    Problem(failure: CDNFailure(message: "\(url) answers \(response.statusLine)", response: response))
                )
            }
            return .failure(Problem(failure: CDNFailure(response: response)))
        }
        do {
            return .success((try JSONParser().parse(response.body).value, response))
        } catch {
            return .failure(Problem(failure: CDNFailure(message: "\(url): \(error.description)", response: response)))
        }
    }
}
