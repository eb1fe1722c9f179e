import AASAKit

/// Whether Apple's CDN serves the same association file as the origin.
///
/// Apple's devices fetch the file from
/// `https://app-site-association.cdn-apple.com/a/v1/<domain>`, not from the
/// origin, and the CDN refreshes "within 24 hours" with no invalidation: a
/// change is live only once the CDN has it. The CDN re-serialises JSON, so
/// the copies are compared semantically.
public struct CDNComparison: Sendable {
    /// How the comparison came out, worst first. `exitCode` is what
    /// `aasa cdn-diff` returns for it.
    public enum Outcome: Sendable {
        /// The origin could not be fetched or is not JSON.
        case originError(String)
        /// The CDN could not be fetched, or has no usable copy.
        case cdnError(CDNFailure)
        /// Both are JSON and they differ.
        case differs(JSONDiff)
        /// Both are JSON and equal.
        case inSync

        public var exitCode: Int32 {
            switch self {
            case .inSync: 0
            case .differs: 1
            case .cdnError: 2
            case .originError: 3
            }
        }

        /// `in-sync`, `differs`, `cdn-error`, `origin-error`.
        public var name: String {
            switch self {
            case .inSync: "in-sync"
            case .differs: "differs"
            case .cdnError: "cdn-error"
            case .originError: "origin-error"
            }
        }
    }

    public var domain: String
    public var originURL: String
    public var cdnURL: String
    public var outcome: Outcome
    /// Set when the CDN failed too, even though the origin's failure decides
    /// the outcome: both explanations are useful.
    public var cdnFailure: CDNFailure?
    /// `Apple-From`, `Apple-Origin-Format`, `Age`, `Cache-Control` … of a
    /// successful CDN answer: how fresh its copy is.
    public var cdnHeaders: [(name: String, value: String)]

    public init(
        domain: String,
        originURL: String,
        cdnURL: String,
        outcome: Outcome,
        cdnFailure: CDNFailure? = nil,
        cdnHeaders: [(name: String, value: String)] = []
    ) {
        self.domain = domain
        self.originURL = originURL
        self.cdnURL = cdnURL
        self.outcome = outcome
        self.cdnFailure = cdnFailure
        self.cdnHeaders = cdnHeaders
    }

    /// `{"domain", "origin", "cdn", "result", "changes"?, "cdnError"?, "originError"?, "cdnHeaders"?}`.
    public var json: JSONValue {
        var object = JSONObject()
        object["domain"] = .string(domain)
        object["origin"] = .string(originURL)
        object["cdn"] = .string(cdnURL)
        object["result"] = .string(outcome.name)
        switch outcome {
        case .inSync: break
        case .differs(let diff): object["changes"] = .array(diff.changes.map(\.json))
        case .cdnError: break
        case .originError(let message): object["originError"] = .string(message)
        }
        if let cdnFailure { object["cdnError"] = cdnFailure.json }
        if !cdnHeaders.isEmpty {
            object["cdnHeaders"] = .object(JSONObject(cdnHeaders.map { ($0.name, JSONValue.string($0.value)) }))
        }
        return .object(object)
    }
}
