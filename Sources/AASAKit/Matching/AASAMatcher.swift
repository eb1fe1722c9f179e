/// Apple's Universal Links matcher, reimplemented from observed behaviour
/// (docs/SEMANTICS.md §2–§6): which rule of a file decides for a URL and an
/// app, and why.
///
/// Every pattern is compiled once, at init; ``evaluate(_:appID:)`` only
/// walks automata, in time linear in the URL for each rule.
public struct AASAMatcher: Sendable {
    /// The app IDs the file lists under `applinks`, in order.
    public var appIDs: [String]
    /// The host the file is served for, lowercased; `nil` accepts any host.
    /// `*.example.com` (a wildcard entitlement, which uses the file of
    /// `example.com`) accepts every subdomain of `example.com` but not
    /// `example.com` itself.
    public private(set) var domain: String?

    private var rulesByDetail: [[CompiledRule]]
    private var detailByAppID: [String: Int]

    /// Compiles every rule once. `domain` is the host the file is served
    /// for (nil = accept any host; see ``domain`` for wildcards).
    public init(file: AASAFile, domain: String? = nil) {
        self.init(file: file, domain: domain, codes: .snapshot)
    }

    /// Compiles against a given ISO code snapshot instead of the bundled one.
    init(file: AASAFile, domain: String?, codes: ISOCodes) {
        self.domain = domain?.lowercased()
        self.appIDs = file.appLinksAppIDs
        let details = file.appLinks?.details ?? []
        let table = VariableTable(userVariables: file.appLinks?.substitutionVariables ?? [:], codes: codes)
        rulesByDetail = details.map { detail in
            detail.rules.map { CompiledRule(rule: $0, detailIndex: detail.index, variables: table) }
        }
        detailByAppID = [:]
        for detail in details {
            for id in detail.appIDs where detailByAppID[id] == nil {
                detailByAppID[id] = detail.index
            }
        }
    }

    /// Decides what the system does with `url` for `appID`.
    public func evaluate(_ url: AASAURL, appID: String) -> MatchResult {
        var steps = 0
        return evaluate(url, appID: appID, steps: &steps)
    }

    /// ``evaluate(_:appID:)`` that also counts the automaton steps.
    func evaluate(_ url: AASAURL, appID: String, steps: inout Int) -> MatchResult {
        guard url.scheme == "https" || url.scheme == "http" else {
            return MatchResult(decision: .none, reason: "URL scheme \(url.scheme) is not http or https")
        }
        if let domain, !Self.host(url.host, isServedBy: domain) {
            return MatchResult(decision: .none, reason: "URL host \(url.host) is not \(domain)")
        }
        guard let detailIndex = detailByAppID[appID] else {
            return MatchResult(decision: .none, reason: "app ID not listed in applinks.details")
        }
        var input = MatchInput(url: url)
        var notes: [String] = []
        for compiled in rulesByDetail[detailIndex] {
            let note: String
            switch compiled.evaluate(&input, steps: &steps) {
            case .matched:
                return Self.decided(by: compiled, notes: notes)
            case .notMatched:
                continue
            case .undecodable(let component):
                note =
                    "the URL's \(component.rawValue) has an invalid percent-escape, so rules with percentEncoded false cannot match it"
            case .broken(let failure):
                note = "rule \(compiled.rule.path) never matches: \(failure)"
            }
            if !notes.contains(note) { notes.append(note) }
        }
        let reason = (["no rule matched"] + notes).joined(separator: "; ")
        return MatchResult(decision: .none, reason: reason, notes: notes)
    }

    /// Host equality, case-insensitive; the port never takes part.
    private static func host(_ host: String, isServedBy domain: String) -> Bool {
        let host = host.lowercased()
        if domain.hasPrefix("*.") {
            return host.hasSuffix(domain.dropFirst(1)) && host.count > domain.count - 1
        }
        return host == domain
    }

    private static func decided(by compiled: CompiledRule, notes: [String]) -> MatchResult {
        let rule = compiled.rule
        let matched = MatchedRule(
            detailIndex: compiled.detailIndex,
            ruleIndex: rule.index,
            path: rule.path,
            written: rule.written,
            effective: .object(rule.effective),
            viaDefaults: rule.inheritedKeys.contains { $0 != "comment" },
            variables: compiled.variables
        )
        let decision: MatchDecision = rule.isExclusion ? .blocked : .matched
        let verb = rule.isExclusion ? "blocked match." : "matched."
        return MatchResult(
            decision: decision,
            rule: matched,
            reason: "Pattern \(displayPattern(rule)) \(verb)",
            notes: notes
        )
    }

    /// How `swcutil` names a rule: the path pattern in quotes when that is
    /// all the rule says, else the rule as JSON.
    static func displayPattern(_ rule: Rule) -> String {
        if case .string(let text) = rule.written {
            return JSONValue.string(text).serialized()
        }
        if let object = rule.written.objectValue, case .string(let path)? = object["/"],
            object.keys.allSatisfy({ $0 == "/" || $0 == "comment" })
        {
            return JSONValue.string(path).serialized()
        }
        return rule.written.serialized()
    }
}
