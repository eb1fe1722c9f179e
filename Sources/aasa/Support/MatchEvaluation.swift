import AASAKit

/// The outcome of `aasa match`, rendered for people or machines.
struct MatchEvaluation {
    /// Why the app does not open, as scripts read it (`why` in JSON).
    enum Why: String {
        case blocked
        case noRuleMatched = "no-rule-matched"
        case hostMismatch = "host-mismatch"
        case httpScheme = "http-scheme"
    }

    /// One app's outcome.
    struct Outcome {
        var appID: String
        var result: MatchResult
        /// `nil` when the app opens.
        var why: Why?
        var explanation: NoMatchExplanation?

        var opensApp: Bool { why == nil }
    }

    var url: AASAURL
    var domain: String
    var outcomes: [Outcome]
    /// Whether a miss carries its ``NoMatchExplanation`` (and JSON the
    /// `explanation` key): `aasa match -` leaves it out.
    var explained = true

    init(url: AASAURL, domain: String, file: AASAFile, appIDs: [String]) {
        let matcher = AASAMatcher(file: file, domain: domain)
        self.init(url: url, domain: domain, file: file, results: appIDs.map { ($0, matcher.evaluate(url, appID: $0)) })
    }

    /// The outcomes of results already decided (by `aasa match -`'s batch),
    /// app by app.
    init(
        url: AASAURL,
        domain: String,
        file: AASAFile,
        results: [(appID: String, result: MatchResult)],
        explained: Bool = true
    ) {
        self.url = url
        self.domain = domain
        self.explained = explained
        self.outcomes = results.map { appID, result in
            var outcome = Outcome(appID: appID, result: result)
            outcome.why = Self.why(result, url: url) { Self.host(url.host, isServedBy: domain, file: file) }
            if outcome.why == .noRuleMatched, explained {
                outcome.explanation = NoMatchExplanation(file: file, url: url, appID: appID)
            }
            return outcome
        }
    }

    /// Why `result` does not open the app for `url`, `nil` when it does;
    /// `hostIsServed` (whether the file serves the URL's host) is asked
    /// only when no rule matched.
    static func why(_ result: MatchResult, url: AASAURL, hostIsServed: () -> Bool) -> Why? {
        switch result.decision {
        case .matched: url.scheme == "http" ? .httpScheme : nil
        case .blocked: .blocked
        case .none: hostIsServed() ? .noRuleMatched : .hostMismatch
        }
    }

    /// The matcher's own host rule, asked the same way the run does.
    static func host(_ host: String, isServedBy domain: String, file: AASAFile) -> Bool {
        LinkTestSites(byHost: [domain: .init(name: domain, content: .file(file))]).site(for: host) != nil
    }

    /// `swcutil verify`-style lines:
    /// `ABCDE12345.com.example.app: Pattern "/buy/*" matched. (rule 3, applinks.details[0].components[3])`.
    func textLines() -> [String] {
        var lines = ["URL: \(url)", "Domain: \(domain)"]
        if outcomes.isEmpty {
            lines.append("The file lists no app IDs under applinks.details.")
        }
        for outcome in outcomes {
            lines.append("\(outcome.appID): \(Self.sentence(outcome))")
            for note in outcome.result.notes where outcome.result.decision != .none {
                lines.append("  note: \(note)")
            }
        }
        return lines
    }

    static func sentence(_ outcome: Outcome) -> String {
        let result = outcome.result
        guard let rule = result.rule else {
            switch outcome.why {
            case .hostMismatch?:
                return "did not match: \(result.reason) (each host's own file decides for its URLs)."
            default:
                return "did not match: \(outcome.explanation?.sentence ?? result.reason)."
            }
        }
        var details = ["rule \(rule.ruleIndex)", rule.path.description]
        if rule.viaDefaults { details.append("with keys from defaults") }
        if !rule.variables.isEmpty {
            details.append("variables " + rule.variables.map { "$(\($0))" }.joined(separator: ", "))
        }
        let sentence = "\(result.reason) (\(details.joined(separator: ", ")))"
        guard outcome.why == .httpScheme else { return sentence }
        return sentence + " But iOS opens apps for https:// links only: for this http:// URL the browser opens."
    }

    /// `{"url","domain","results":[{"appID","decision","rule","reason","opensApp","why","explanation"}]}`;
    /// `rule` is `null` when no rule decided, `why` when the app opens,
    /// `explanation` unless no rule matched. The text of
    /// ``write(to:rules:)`` read back: the writer is the one definition.
    /// Its bytes failing to parse would be a defect of the writer, thrown
    /// rather than printed as `null` under exit status 0.
    func json() throws(JSONParseError) -> JSONValue {
        var writer = JSONTextWriter()
        var rules = RuleFragments()
        write(to: &writer, rules: &rules)
        return try JSONParser().parse(writer.bytes).value
    }

    /// Writes ``json()`` as one compact object, each deciding rule's JSON
    /// taken from `rules` (written once per rule for a whole list).
    func write(to writer: inout JSONTextWriter, rules: inout RuleFragments) {
        Self.writeHead(url: url, domain: domain, to: &writer)
        for (offset, outcome) in outcomes.enumerated() {
            // Spelt out: `JSONValue` takes a `nil` literal as its own
            // `.null`, which would write the key instead of leaving it out.
            let explanation: JSONValue? = explained ? (outcome.explanation?.json ?? .null) : Optional.none
            Self.writeOutcome(
                first: offset == 0,
                appID: outcome.appID,
                result: outcome.result,
                why: outcome.why,
                explanation: explanation,
                domain: domain,
                to: &writer,
                rules: &rules
            )
        }
        writer.raw("]}")
    }

    /// `{"url":…,"domain":…,"results":[`: what precedes the outcomes.
    static func writeHead(url: AASAURL, domain: String, to writer: inout JSONTextWriter) {
        writer.raw("{\"url\":")
        writer.string(of: url)
        writer.member("domain", domain)
        writer.raw(",\"results\":[")
    }

    /// One element of `results`; `explanation` `nil` leaves the key out.
    /// `aasa match -` writes its lines with this and ``writeHead(url:domain:to:)``
    /// straight from the decisions, without an evaluation per line.
    static func writeOutcome(
        first: Bool,
        appID: String,
        result: MatchResult,
        why: Why?,
        explanation: JSONValue?,
        domain: String,
        to writer: inout JSONTextWriter,
        rules: inout RuleFragments
    ) {
        writer.raw(first ? "{\"appID\":" : ",{\"appID\":")
        writer.string(appID)
        writer.member("decision", result.decision.rawValue)
        writer.raw(",\"rule\":")
        if let rule = result.rule {
            writer.raw(rules.fragment(for: rule, site: domain))
        } else {
            writer.raw("null")
        }
        writer.member("reason", result.reason)
        writer.raw(",\"opensApp\":")
        writer.bool(why == nil)
        writer.raw(",\"why\":")
        if let why { writer.string(why.rawValue) } else { writer.raw("null") }
        if let explanation {
            writer.raw(",\"explanation\":")
            writer.value(explanation)
        }
        writer.raw("}")
    }
}
