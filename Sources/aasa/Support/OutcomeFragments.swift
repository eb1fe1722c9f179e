import AASAKit

/// The JSON of the outcomes a chunk of `aasa match -`'s lines shares, each
/// rendered once, and the host answer of its last line.
struct OutcomeFragments {
    struct Key: Hashable {
        var target: Int
        var app: Int
        /// ``MatchVerdicts/sharedKey(at:app:)``.
        var verdict: Int64
        /// For a rule: the URL is `http`; for no rule: the file serves its host.
        var flag: Bool
    }

    private var fragments: [Key: [UInt8]] = [:]
    private var rules = RuleFragments()
    private var lastHost: (host: String, target: Int, served: Bool)?

    /// Writes the outcome of `key`, made by `make` the first time.
    mutating func write(
        _ key: Key,
        to writer: inout JSONTextWriter,
        make: (inout OutcomeFragments, inout JSONTextWriter) -> Void
    ) {
        if let fragment = fragments[key] {
            writer.raw(fragment)
            return
        }
        var fragment = JSONTextWriter()
        make(&self, &fragment)
        fragments[key] = fragment.bytes
        writer.raw(fragment.bytes)
    }

    /// One app's outcome, as `aasa match URL --format json` writes it
    /// without the explanation.
    mutating func write(
        _ offset: Int,
        _ appID: String,
        _ result: MatchResult,
        why: MatchEvaluation.Why?,
        domain: String,
        to writer: inout JSONTextWriter
    ) {
        MatchEvaluation.writeOutcome(
            first: offset == 0,
            appID: appID,
            result: result,
            why: why,
            explanation: nil,
            domain: domain,
            to: &writer,
            rules: &rules
        )
    }

    /// Whether `domain`'s file serves `host`, asked once per run of lines
    /// of one host: consecutive URLs nearly always share it.
    mutating func host(_ host: String, target: Int, isServedBy domain: String, file: AASAFile) -> Bool {
        if let lastHost, lastHost.target == target, lastHost.host == host { return lastHost.served }
        let served = MatchEvaluation.host(host, isServedBy: domain, file: file)
        lastHost = (host, target, served)
        return served
    }
}
