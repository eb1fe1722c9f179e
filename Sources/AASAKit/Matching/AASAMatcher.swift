/// Apple's Universal Links matcher, reimplemented from observed behaviour
/// (docs/SEMANTICS.md §2–§6): which rule of a file decides for a URL and an
/// app, and why.
///
/// Every pattern is compiled once, at init; ``evaluate(_:appID:)`` only
/// walks automata, in time linear in the URL for each rule.
public struct AASAMatcher: Sendable {
    /// Everything compiled, in one reference: a matcher is read per URL
    /// out of the site that holds it, and a copy of nine fields retained
    /// and released each of them, from every core.
    private var compiled: CompiledMatcher

    /// The app IDs the file lists under `applinks`, in order. Read-only:
    /// which detail decides for an app is compiled from the file, so a new
    /// list here would name apps the tables do not know.
    public var appIDs: [String] { compiled.appIDs }

    /// The host the file is served for, lowercased; `nil` accepts any host.
    /// `*.example.com` (a wildcard entitlement, which uses the file of
    /// `example.com`) accepts every subdomain of `example.com` but not
    /// `example.com` itself.
    public internal(set) var domain: String? {
        get { compiled.domain }
        set { compiled = compiled.with(domain: newValue) }
    }

    /// Compiles every rule once. `domain` is the host the file is served
    /// for (nil = accept any host; see ``domain`` for wildcards).
    public init(file: AASAFile, domain: String? = nil) {
        self.init(file: file, domain: domain, table: VariableTable(userVariables: Self.variables(of: file)))
    }

    /// Compiles against a given ISO code snapshot instead of the bundled one.
    init(file: AASAFile, domain: String?, codes: ISOCodes) {
        self.init(
            file: file,
            domain: domain,
            table: VariableTable(userVariables: Self.variables(of: file), codes: codes)
        )
    }

    private static func variables(of file: AASAFile) -> [String: [String]] {
        file.appLinks?.substitutionVariables ?? [:]
    }

    private init(file: AASAFile, domain: String?, table: VariableTable) {
        compiled = CompiledMatcher(file: file, domain: domain?.lowercased(), table: table)
    }

    /// Decides what the system does with `url` for `appID`.
    public func evaluate(_ url: AASAURL, appID: String) -> MatchResult {
        var steps = 0
        return evaluate(url, appID: appID, steps: &steps)
    }

    /// ``evaluate(_:appID:)`` that also counts the pattern steps.
    func evaluate(_ url: AASAURL, appID: String, steps: inout Int) -> MatchResult {
        var scratch = MatchScratch()
        return evaluate(url, appID: appID, steps: &steps, scratch: &scratch)
    }

    /// ``evaluate(_:appID:steps:)`` with the buffers of `scratch`, which the
    /// batch API reuses from one URL to the next.
    func evaluate(_ url: AASAURL, appID: String, steps: inout Int, scratch: inout MatchScratch) -> MatchResult {
        switch verdict(url, appID: appID, steps: &steps, scratch: &scratch) {
        case .decided(let detail, let position): compiled.rulesByDetail[Int(detail)][Int(position)].decided
        case .noRule: MatchResult(decision: .none, reason: Self.noRuleMatched)
        case .other(let result): result
        }
    }

    /// How ``evaluate(_:appID:steps:scratch:)`` ends, told without building
    /// a result for the usual outcomes: a long list keeps the indices of the
    /// deciding rule, where a `MatchResult` retained its strings per URL.
    enum Verdict {
        /// The rule at `position` of detail `detail` decided, without notes
        /// (its result is ``decided(detail:position:)``).
        case decided(detail: Int32, position: Int32)
        /// No rule matched, and none was kept from matching (no notes).
        case noRule
        /// Anything else: another host, an app ID not listed, notes.
        /// Boxed: inline, the rare result made every verdict as large as a
        /// `MatchResult`, returned through memory and destroyed per URL by
        /// the enum's value witness; boxed, a verdict is a word and a tag.
        indirect case other(MatchResult)
    }

    /// `reason` when no rule matched and there are no notes.
    static let noRuleMatched = "no rule matched"

    /// What decides `url` for `appID`, as a ``Verdict``.
    func verdict(_ url: AASAURL, appID: String, steps: inout Int, scratch: inout MatchScratch) -> Verdict {
        compiled.verdict(url, detail: detail(listing: appID), steps: &steps, scratch: &scratch)
    }

    /// The place of the first detail listing `appID`; `nil` when none does.
    func detail(listing appID: String) -> Int? {
        compiled.detail(listing: appID)
    }

    /// The compiled tables, not retained: valid while this matcher (or a
    /// copy) lives. A list's records call ``CompiledMatcher/verdict(_:detail:steps:scratch:)``
    /// through it: a call on the matcher retained and released the tables
    /// per URL, a reference count every core shares.
    var unretainedCompiled: Unmanaged<CompiledMatcher> { .passUnretained(compiled) }

    /// The result when the rule at `position` of detail `detail` decides
    /// (a ``Verdict/decided(detail:position:)``), built once per rule.
    func decided(detail: Int, position: Int) -> MatchResult {
        compiled.rulesByDetail[detail][position].decided
    }

    /// How many rules each detail has: a ``Verdict/decided(detail:position:)``
    /// as one number per file is its detail's offset plus its position.
    var ruleCounts: [Int] { compiled.rulesByDetail.map(\.count) }

    /// Host equality, case-insensitive; the port never takes part.
    fileprivate static func host(_ host: String, isServedBy domain: String) -> Bool {
        // The usual case, an ASCII host equal to the domain, without
        // allocating a lowercased copy.
        if !domain.hasPrefix("*."), host.utf8.count == domain.utf8.count,
            let equal = host.withLentUTF8({ host in domain.withLentUTF8 { asciiEqualFolded(host, $0) } })
        {
            return equal
        }
        let host = host.lowercased()
        if domain.hasPrefix("*.") {
            return host.hasSuffix(domain.dropFirst(1)) && host.count > domain.count - 1
        }
        return host == domain
    }

    /// Whether `host`, ASCII uppercase folded, is `domain`, byte by byte
    /// where they lie (a list's `match -` asks it per URL: zipping the two
    /// UTF-8 views was a tenth of its matching); `nil` when `host` is not
    /// all ASCII: lowercasing and `String`'s equality decide then, which
    /// count canonically equivalent spellings as equal.
    private static func asciiEqualFolded(
        _ host: UnsafeBufferPointer<UInt8>,
        _ domain: UnsafeBufferPointer<UInt8>
    ) -> Bool? {
        guard !host.contains(where: { $0 >= 0x80 }) else { return nil }
        for index in host.indices {
            let byte = host[index]
            if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != domain[index] { return false }
        }
        return true
    }

    /// The result when `rule` decides (before notes), built once per rule
    /// (``CompiledRule/decided``): a list of URLs decided by the same rule
    /// shares its strings.
    static func decided(by rule: Rule, detailIndex: Int, variables: [String]) -> MatchResult {
        let matched = MatchedRule(
            detailIndex: detailIndex,
            ruleIndex: rule.index,
            path: rule.path,
            written: rule.written,
            effective: .object(rule.effective),
            viaDefaults: rule.inheritedKeys.contains { $0 != "comment" },
            variables: variables
        )
        let decision: MatchDecision = rule.isExclusion ? .blocked : .matched
        let verb = rule.isExclusion ? "blocked match." : "matched."
        return MatchResult(decision: decision, rule: matched, reason: "Pattern \(displayPattern(rule)) \(verb)")
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

extension CompiledMatcher {
    /// ``AASAMatcher/verdict(_:appID:steps:scratch:)`` for the app whose
    /// ``AASAMatcher/detail(listing:)`` is `detail`: a run of many URLs for
    /// one app looks its app ID up once, not per URL.
    func verdict(
        _ url: AASAURL,
        detail: Int?,
        steps: inout Int,
        scratch: inout MatchScratch
    ) -> AASAMatcher.Verdict {
        // No scheme to check: a URL is http or https (``AASAURL/Scheme``).
        if let domain = domain, !AASAMatcher.host(url.host, isServedBy: domain) {
            return .other(MatchResult(decision: .none, reason: "URL host \(url.host) is not \(domain)"))
        }
        guard let detailIndex = detail else {
            return .other(MatchResult(decision: .none, reason: "app ID not listed in applinks.details"))
        }
        scratch.input.reset(url: url)
        // Made with the first note: an empty array was released at every
        // return, a call per URL for nearly none that has a note.
        var notes: [String]?
        unretainedIndexes[detailIndex]._withUnsafeGuaranteedRef { index in
            index.candidates(for: &scratch.input, into: &scratch.candidates)
        }
        let start = ruleStart[detailIndex]
        for position in scratch.candidates {
            let rule = unretainedRules[start + Int(position)]
            let outcome = rule._withUnsafeGuaranteedRef { candidate in
                candidate.evaluate(&scratch.input, steps: &steps, scratch: &scratch.automaton)
            }
            let note: String
            switch outcome {
            case .matched:
                guard let notes else { return .decided(detail: Int32(detailIndex), position: position) }
                var result = rule.takeUnretainedValue().decided
                result.notes = notes
                return .other(result)
            case .notMatched:
                continue
            case .undecodable(let component):
                note =
                    "the URL's \(component.rawValue) has an invalid percent-escape, so rules with percentEncoded false cannot match it"
            case .broken(let failure):
                note = "rule \(rule.takeUnretainedValue().rule.path) never matches: \(failure)"
            }
            if notes == nil {
                notes = [note]
            } else if !notes!.contains(note) {
                notes!.append(note)
            }
        }
        guard let notes else { return .noRule }
        let reason = ([AASAMatcher.noRuleMatched] + notes).joined(separator: "; ")
        return .other(MatchResult(decision: .none, reason: reason, notes: notes))
    }
}
