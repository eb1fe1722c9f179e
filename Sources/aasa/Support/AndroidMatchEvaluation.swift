import AASAKit

/// The outcome of `aasa match --package`: what Android 15+ does with a URL
/// by the dynamic App Link rules of the host's `assetlinks.json`, rendered
/// like the Apple outcome.
struct AndroidMatchEvaluation {
    /// Why the app does not open, as scripts read it (`why` in JSON).
    enum Why: String {
        case blocked
        case noRuleMatched = "no-rule-matched"
        /// No usable dynamic rules: the manifest's intent filters decide.
        case intentFilters = "intent-filters"
        /// Google rejects the file, or the URL is for another host.
        case notVerified = "not-verified"
    }

    var url: AASAURL
    var domain: String
    var package: String
    var result: DynamicLinkResult
    /// Whether the file verifies App Links for the URL's host at all: Google
    /// accepts it and it is served for that host.
    var verified: Bool

    var why: Why? {
        switch result.decision {
        case .matched: nil
        case .blocked: .blocked
        case .intentFilters: .intentFilters
        case .none: verified ? .noRuleMatched : .notVerified
        }
    }

    /// `swcutil verify`-style lines, as for Apple:
    /// `com.example.app: Pattern "/buy/*" matched. (rule 3, [0].relation_extensions…[3])`.
    func textLines() -> [String] {
        var lines = ["URL: \(url)", "Domain: \(domain)", "Platform: Android (dynamic App Links, Android 15+)"]
        let sentence: String
        switch (result.decision, result.rule) {
        case (_, let rule?):
            sentence = "\(result.reason) (rule \(rule.index), \(rule.path))"
        case (.intentFilters, nil):
            sentence = "no dynamic rule decides: \(result.reason)."
        default:
            sentence = "did not match: \(result.reason)."
        }
        lines.append("\(package): \(sentence)")
        lines += result.notes.map { "  note: \($0)" }
        return lines
    }

    /// `{"url","domain","platform":"android","results":[{"package","decision","rule","reason","opensApp","why","notes"?}]}`.
    func json() -> JSONValue {
        var entry = result.json.objectValue ?? JSONObject()
        entry["package"] = .string(package)
        entry["rule"] = entry["rule"] ?? .null
        entry["opensApp"] = .bool(why == nil)
        entry["why"] = why.map { .string($0.rawValue) } ?? .null
        return [
            "url": .string(url.description),
            "domain": .string(domain),
            "platform": "android",
            "results": [.object(entry)],
        ]
    }
}
