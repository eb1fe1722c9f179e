/// Android 15+ dynamic App Links: which rule of a site's `assetlinks.json`
/// decides for a URL and an app, and why.
///
/// Rules are tried in order and the first that matches decides; `exclude`
/// blocks. A rule matches when every key it has matches: `/` the decoded
/// path, `#` the decoded fragment (a URL without `#` matches no `#`
/// pattern), and each `?` entry some parameter of that exact name whose
/// decoded value matches (other parameters are free; a missing or bare
/// parameter fails). Patterns are ``AndroidGlob``s. A rule with none of the
/// three keys matches every URL. The file is validated first: Google rejects
/// a file with any error, and Android ignores a malformed rule set and falls
/// back to the app's intent filters.
///
/// Patterns are compiled once, at init; evaluation is linear in the URL for
/// each rule.
public struct DynamicLinkMatcher: Sendable {
    /// The packages the file verifies App Links for, in order.
    public let packages: [String]
    /// The host the file is served for, lowercased; `nil` accepts any host.
    public let host: String?

    /// Why Google rejects the file (`path: message` of its first error
    /// outside the dynamic rules); `nil` when it does not. A rejected file
    /// verifies no App Link at all.
    public let rejection: String?
    private let plans: [String: Plan]

    private enum Plan: Sendable {
        case rules([CompiledDynamicRule])
        /// Android uses the intent filters; the reason says why.
        case intentFilters(String)
    }

    /// Validates `file` and compiles every rule once. `host` is the site the
    /// file is served for (`nil` = accept any host).
    public init(file: AssetLinksFile, host: String? = nil) {
        self.host = host.map(WebSiteOrigin.canonicalHost)
        self.packages = file.appLinkPackages
        let violations = JSONSchema.assetLinks.validate(file.json)
        let ruleViolations = violations.filter(AssetLinksViolationReader.isInRuleSet)
        self.rejection = violations.first { !AssetLinksViolationReader.isInRuleSet($0) }.map {
            "\($0.path): \($0.message)"
        }
        var plans: [String: Plan] = [:]
        for package in packages {
            let statements = file.statements.filter { $0.grantsAppLinks(to: package) }
            plans[package] = Self.plan(for: package, statements: statements, ruleViolations: ruleViolations)
        }
        self.plans = plans
    }

    /// Decides what Android does with `url` for the app `package`.
    public func evaluate(_ url: AASAURL, package: String) -> DynamicLinkResult {
        if let host, WebSiteOrigin.canonicalHost(url.host) != host {
            return DynamicLinkResult(decision: .none, reason: "URL host \(url.host) is not \(host)")
        }
        if let rejection {
            return DynamicLinkResult(
                decision: .none,
                reason: "Google rejects this file, so Android verifies no App Links from it (\(rejection))"
            )
        }
        guard let plan = plans[package] else {
            var reason = "\(package) is not granted \(AssetLinksRelation.handleAllURLs) in this file"
            if let close = SchemaMessages.closest(to: package, among: packages) {
                reason += " (did you mean \(quoted(close))?)"
            }
            return DynamicLinkResult(decision: .none, reason: reason)
        }
        switch plan {
        case .intentFilters(let reason):
            return DynamicLinkResult(decision: .intentFilters, reason: reason)
        case .rules(let rules):
            let input = DynamicLinkInput(url: url)
            guard let decider = rules.first(where: { $0.matches(input) }) else {
                return DynamicLinkResult(decision: .none, reason: "no rule matched")
            }
            let rule = decider.rule
            var notes: [String] = []
            if decider.hasInnerStar {
                notes.append(
                    """
                    rule \(rule.path) has a "*" before more pattern text; Android's own glob matcher does not \
                    backtrack, so confirm this decision on a device
                    """
                )
            }
            return DynamicLinkResult(
                decision: rule.isExclusion ? .blocked : .matched,
                rule: rule,
                reason: "Pattern \(rule.display) \(rule.isExclusion ? "blocked match." : "matched.")",
                notes: notes
            )
        }
    }

    private static func plan(
        for package: String,
        statements: [AssetLinksStatement],
        ruleViolations: [SchemaViolation]
    ) -> Plan {
        let fallback = "Android falls back to the app's intent filters"
        for statement in statements {
            if let violation = ruleViolations.first(where: {
                $0.path.components.first == statement.path.components.first
            }) {
                return .intentFilters(
                    "the dynamic rules for \(package) are malformed (\(violation.path): \(violation.message)); \(fallback)"
                )
            }
        }
        let sets = statements.compactMap(\.dynamicRules)
        guard !sets.isEmpty else {
            return .intentFilters("no dynamic rules for \(package): the app's intent filters decide")
        }
        let rules = sets.flatMap(\.rules)
        guard !rules.isEmpty else {
            return .intentFilters("the dynamic rule list for \(package) is empty; \(fallback)")
        }
        return .rules(rules.map(CompiledDynamicRule.init))
    }
}

/// A rule with its patterns compiled.
private struct CompiledDynamicRule: Sendable {
    let rule: DynamicRule
    let path: AndroidGlob?
    let fragment: AndroidGlob?
    let query: [(name: String, glob: AndroidGlob)]

    init(_ rule: DynamicRule) {
        self.rule = rule
        path = rule.pathPattern.map(AndroidGlob.init)
        fragment = rule.fragmentPattern.map(AndroidGlob.init)
        query = rule.queryPatterns.map { ($0.name, AndroidGlob($0.pattern)) }
    }

    var hasInnerStar: Bool {
        [path, fragment].contains { $0?.hasInnerStar == true } || query.contains { $0.glob.hasInnerStar }
    }

    func matches(_ input: DynamicLinkInput) -> Bool {
        if let path, !path.matches(input.path) { return false }
        if let fragment {
            guard let text = input.fragment, fragment.matches(text) else { return false }
        }
        return query.allSatisfy { name, glob in
            input.parameters.contains { $0.name == name && $0.value.map(glob.matches) == true }
        }
    }
}
