import AASAKit
import Foundation

/// Fetches a domain's file from Apple's CDN and compares it with a reference
/// copy: a local file (the repository) or the live origin
/// (``CDNComparison``).
public struct CDNDiff: Sendable {
    /// Apple's CDN; the domain is appended.
    public static let appleCDNBase = "https://app-site-association.cdn-apple.com/a/v1/"
    /// The CDN headers worth showing on success: where the copy came from and how old it is.
    static let freshnessHeaders = [
        "Apple-From", "Apple-Origin-Format", "Age", "Cache-Control", "Expires", "Date", "Last-Modified",
    ]

    /// What the CDN's copy is compared with for one domain.
    public enum Source: Sendable, Hashable {
        /// The repository's copy: its path and bytes. No origin is contacted.
        case file(path: String, bytes: [UInt8])
        /// The origin, reached as `target` says (`--origin-base`, `--resolve`).
        case origin(HostTarget)
    }

    public let fetcher: HTTPFetcher
    /// Replaces ``appleCDNBase`` (`--cdn-base`).
    public var cdnBase: String
    /// The clock for the CDN copy's age when the CDN sends no `Date`.
    public var now: @Sendable () -> Date

    public init(
        fetcher: HTTPFetcher,
        cdnBase: String = CDNDiff.appleCDNBase,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.fetcher = fetcher
        self.cdnBase = cdnBase.hasSuffix("/") ? cdnBase : cdnBase + "/"
        self.now = now
    }

    /// The CDN URL of `domain`.
    public func cdnURL(_ domain: String) -> String { cdnBase + domain.lowercased() }

    /// Compares one domain; never throws: a failure is an outcome.
    public func compare(_ domain: String, with source: Source) async -> CDNComparison {
        let domain = domain.lowercased()
        let cdnURL = cdnURL(domain)
        async let cdnResult = fetchJSON(FetchRequest(cdnURL), fromCDN: true)
        let reference: CDNComparison.Reference
        let referenceResult: Result<(JSONValue, [UInt8]), Problem>
        switch source {
        case .file(let path, let bytes):
            reference = .file(path: path)
            referenceResult = Self.parse(bytes, what: path).map { ($0, bytes) }
        case .origin(let target):
            let request = target.request(HostTarget.wellKnownPath)
            reference = .origin(url: request.url, connectedTo: target.connectionDescription)
            referenceResult = await fetchJSON(request, fromCDN: false).map { ($0.0, $0.1.body) }
        }
        let cdn = await cdnResult

        var comparison = CDNComparison(domain: domain, reference: reference, cdnURL: cdnURL, outcome: .inSync)
        var cdnJSON: JSONValue?
        switch cdn {
        case .failure(let problem):
            comparison.cdnFailure = problem.failure
            comparison.freshness = problem.response.map { CDNFreshness(response: $0, receivedAt: now()) }
        case .success(let (json, response)):
            cdnJSON = json
            comparison.cdnHeaders = Self.freshnessHeaders.compactMap { name in response.header(name).map { (name, $0) }
            }
            comparison.freshness = CDNFreshness(response: response, receivedAt: now())
        }
        switch (referenceResult, cdnJSON, comparison.cdnFailure) {
        case (.failure(let problem), _, _):
            comparison.outcome = .referenceError(problem.failure.explanation)
        case (_, _, let failure?):
            comparison.outcome = .cdnError(failure)
        case (.success(let (referenceJSON, _)), let cdnJSON?, nil):
            let diff = JSONDiff(from: referenceJSON, to: cdnJSON)
            comparison.outcome = diff.isEmpty ? .inSync : .differs(diff)
        case (.success, nil, nil):
            comparison.outcome = .cdnError(CDNFailure(message: "no CDN answer"))
        }
        if case .success(let (_, bytes)) = referenceResult {
            comparison.referenceFindings = AASAValidator().validate(bytes: bytes, file: reference.location)
                .diagnostics.filter { $0.severity > .info }
        }
        return comparison
    }

    private struct Problem: Error {
        var failure: CDNFailure
        /// The answer the failure was read from, when there was one.
        var response: FetchedResponse?

        init(failure: CDNFailure, response: FetchedResponse? = nil) {
            self.failure = failure
            self.response = response
        }
    }

    private static func parse(_ bytes: [UInt8], what: String) -> Result<JSONValue, Problem> {
        do {
            return .success(try JSONParser().parse(bytes).value)
        } catch {
            return .failure(Problem(failure: CDNFailure(message: "\(what): not JSON: \(error.description)")))
        }
    }

    /// A 200 JSON answer, or why there is none (with the answer when there was one).
    private func fetchJSON(
        _ request: FetchRequest,
        fromCDN: Bool
    ) async -> Result<(JSONValue, FetchedResponse), Problem> {
        let response: FetchedResponse
        do {
            response = try await fetcher.fetch(request)
        } catch {
            return .failure(Problem(failure: CDNFailure(message: error.description)))
        }
        let url = request.url
        if response.isRedirect {
            let location = response.header("Location") ?? "(no Location)"
            return .failure(
                Problem(
                    failure: CDNFailure(
                        message: "\(url): \(response.statusLine) redirect to \(location) (not followed)",
                        response: response
                    ),
                    response: response
                )
            )
        }
        guard response.status == 200 else {
            guard fromCDN else {
                return .failure(
                    Problem(
                        failure: CDNFailure(message: "\(url) answers \(response.statusLine)", response: response),
                        response: response
                    )
                )
            }
            return .failure(Problem(failure: CDNFailure(response: response), response: response))
        }
        return Self.parse(response.body, what: url).map { ($0, response) }.mapError { problem in
            Problem(failure: CDNFailure(message: problem.failure.explanation, response: response), response: response)
        }
    }
}
