import AASAKit

/// Whether Apple's CDN serves the same association file as the reference
/// copy: the repository's file (`--from-dir`, `--file`) or the live origin.
///
/// Apple's devices fetch the file from
/// `https://app-site-association.cdn-apple.com/a/v1/<domain>`, not from the
/// origin, and the CDN refreshes "within 24 hours" with no invalidation: a
/// change is live only once the CDN has it. The CDN re-serialises JSON, so
/// the copies are compared semantically.
public struct CDNComparison: Sendable {
    /// What the CDN's copy is compared with.
    public enum Reference: Sendable, Hashable {
        /// A local file; no origin is contacted.
        case file(path: String)
        /// The live origin: the URL fetched and, with `--origin-base` or
        /// `--resolve`, the address connected to instead.
        case origin(url: String, connectedTo: String?)

        /// `file` or `origin`.
        public var kind: String {
            switch self {
            case .file: "file"
            case .origin: "origin"
            }
        }

        /// The path, or the URL (with the address connected to).
        public var location: String {
            switch self {
            case .file(let path): path
            case .origin(let url, nil): url
            case .origin(let url, let address?): "\(url) via \(address)"
            }
        }
    }

    /// How the comparison came out.
    public enum Outcome: Sendable {
        /// The reference copy could not be read (the origin failed, or the
        /// file or the origin's answer is not JSON).
        case referenceError(String)
        /// The CDN could not be fetched, or has no usable copy.
        case cdnError(CDNFailure)
        /// Both are JSON and they differ (reference → CDN).
        case differs(JSONDiff)
        /// Both are JSON and equal.
        case inSync
    }

    public var domain: String
    public var reference: Reference
    public var cdnURL: String
    public var outcome: Outcome
    /// Set when the CDN failed too, even though the reference's failure
    /// decides the outcome: both explanations are useful.
    public var cdnFailure: CDNFailure?
    /// `Apple-From`, `Apple-Origin-Format`, `Age`, `Cache-Control` … of a
    /// successful CDN answer.
    public var cdnHeaders: [(name: String, value: String)]
    /// How old the CDN's answer (copy or cached failure) is and when it
    /// will be refetched at the earliest.
    public var freshness: CDNFreshness?
    /// The validator's errors and warnings for the reference copy: a CDN
    /// in sync with an invalid file is still a broken association.
    public var referenceFindings: [Diagnostic]

    public init(
        domain: String,
        reference: Reference,
        cdnURL: String,
        outcome: Outcome,
        cdnFailure: CDNFailure? = nil,
        cdnHeaders: [(name: String, value: String)] = [],
        freshness: CDNFreshness? = nil,
        referenceFindings: [Diagnostic] = []
    ) {
        self.domain = domain
        self.reference = reference
        self.cdnURL = cdnURL
        self.outcome = outcome
        self.cdnFailure = cdnFailure
        self.cdnHeaders = cdnHeaders
        self.freshness = freshness
        self.referenceFindings = referenceFindings
    }

    /// `in-sync`, `differs`, `cdn-error`, `origin-error` or `file-error`.
    public var result: String {
        switch outcome {
        case .inSync: "in-sync"
        case .differs: "differs"
        case .cdnError: "cdn-error"
        case .referenceError: "\(reference.kind)-error"
        }
    }

    /// The worst of the outcome and the reference file's findings:
    /// anything but in sync fails, validator errors fail, warnings warn.
    public var status: CheckStatus {
        guard case .inSync = outcome else { return .fail }
        switch referenceFindings.map(\.severity).max() {
        case .error?: return .fail
        case .warning?: return .warn
        default: return .pass
        }
    }

    /// `{"domain", "reference": {"kind", "location"}, "cdn", "result", "status", …}`.
    public var json: JSONValue {
        var object = JSONObject()
        object["domain"] = .string(domain)
        object["reference"] = ["kind": .string(reference.kind), "location": .string(reference.location)]
        object["cdn"] = .string(cdnURL)
        object["result"] = .string(result)
        object["status"] = .string(status.rawValue)
        switch outcome {
        case .inSync, .cdnError: break
        case .differs(let diff): object["changes"] = .array(diff.changes.map(\.json))
        case .referenceError(let message): object["referenceError"] = .string(message)
        }
        if let cdnFailure { object["cdnError"] = cdnFailure.json }
        if !cdnHeaders.isEmpty {
            object["cdnHeaders"] = .object(JSONObject(cdnHeaders.map { ($0.name, JSONValue.string($0.value)) }))
        }
        if let freshness { object["cdnFreshness"] = freshness.json }
        if !referenceFindings.isEmpty { object["referenceFindings"] = .array(referenceFindings.map(\.json)) }
        return .object(object)
    }
}
