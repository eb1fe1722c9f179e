/// What Android accepts in dynamic App Link rules but almost certainly does
/// not do what the author meant, in the spirit of the Apple lints: rules
/// that can never decide, patterns that can never match, Apple-only syntax.
struct DynamicRuleLints {
    var file: AssetLinksFile
    /// Statements whose rule set breaks the schema: Android ignores those
    /// sets whole, so findings about single rules would only add noise.
    var malformedSets: Set<Int>

    /// Rule pairs compared per list, as for the Apple lint: about 700 rules,
    /// far beyond hand-written files, checked well under a second.
    static let pairBudget = 250_000
    /// Coverage-table cells per list: a few hundred long patterns, still
    /// well under a second.
    static let cellBudget = 50_000_000

    func diagnostics() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (offset, value) in (file.json.arrayValue ?? []).enumerated() {
            guard let extensions = value[DynamicRuleSet.extensionsKey]?.objectValue else { continue }
            let path = JSONPath([.index(offset)]).appending(DynamicRuleSet.extensionsKey)
            for key in extensions.keys where key != AssetLinksRelation.handleAllURLs {
                var message =
                    "Android reads extensions of \(AssetLinksRelation.handleAllURLs) only, so it ignores this one"
                if let close = SchemaMessages.closest(to: key, among: [AssetLinksRelation.handleAllURLs]) {
                    message += "; did you mean \(quoted(close))?"
                }
                diagnostics.append(.warning("assetlinks.dynamic-ignored", at: path.appending(key), message))
            }
        }
        for statement in file.statements {
            guard let set = statement.dynamicRules, !malformedSets.contains(statement.index) else { continue }
            diagnostics += setFindings(set, in: statement)
        }
        diagnostics += splitPackages()
        return diagnostics
    }

    private func setFindings(_ set: DynamicRuleSet, in statement: AssetLinksStatement) -> [Diagnostic] {
        guard statement.grants(AssetLinksRelation.handleAllURLs), statement.target?.packageName != nil else {
            return [
                .warning(
                    "assetlinks.dynamic-ignored",
                    at: set.path,
                    """
                    dynamic rules apply only to a statement granting \(AssetLinksRelation.handleAllURLs) to an \
                    android_app, so Android ignores these
                    """
                )
            ]
        }
        guard !set.rules.isEmpty else {
            return [
                .warning(
                    "assetlinks.dynamic-empty",
                    at: set.path,
                    """
                    the rule list is empty; Android's handling of an empty list is undocumented (every URL of the \
                    intent filters, or none): remove the block or list rules
                    """
                )
            ]
        }
        return set.rules.flatMap(ruleFindings) + unreachableRules(set)
    }

    private func ruleFindings(_ rule: DynamicRule) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        if rule.isUnconstrained {
            diagnostics.append(
                .warning(
                    "assetlinks.dynamic-empty-rule",
                    at: rule.path,
                    """
                    the rule has no "/", "?" or "#"; swift-aasa reads it as matching every URL, but Android's reading \
                    is undocumented: write {"/": "*"} to mean every URL
                    """
                )
            )
        }
        if let pattern = rule.pathPattern {
            if let first = pattern.first, !"/*?".contains(first) {
                diagnostics.append(
                    .warning(
                        "assetlinks.dynamic-path",
                        at: rule.path.appending("/"),
                        "the path pattern does not start with \"/\", and every URL path does, so it never matches"
                    )
                )
            } else if pattern.isEmpty {
                diagnostics.append(
                    .warning(
                        "assetlinks.dynamic-path",
                        at: rule.path.appending("/"),
                        "an empty path pattern never matches"
                    )
                )
            }
        }
        for query in rule.queryPatterns where query.name.isEmpty || query.name.contains(where: { "=&".contains($0) }) {
            diagnostics.append(
                .warning(
                    "assetlinks.dynamic-query-name",
                    at: rule.path.appending("?").appending(query.name),
                    "no query parameter has this name (empty, or holding \"=\" or \"&\"), so the rule never matches"
                )
            )
        }
        for (path, pattern) in rule.patterns {
            diagnostics += patternFindings(pattern, at: path)
        }
        return diagnostics
    }

    private func patternFindings(_ pattern: String, at path: JSONPath) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        if pattern.contains("$(") {
            diagnostics.append(
                .warning(
                    "assetlinks.dynamic-variable",
                    at: path,
                    "Android has no substitution variables: \"$(\" is matched literally"
                )
            )
        }
        if Self.hasPercentEscape(pattern) {
            diagnostics.append(
                .warning(
                    "assetlinks.dynamic-encoded-pattern",
                    at: path,
                    "Android matches the decoded URL, so a %XX escape in a pattern is compared literally; write the character itself"
                )
            )
        }
        if AndroidGlob(pattern).hasInnerStar {
            diagnostics.append(
                .info(
                    "assetlinks.dynamic-wildcard",
                    at: path,
                    """
                    a "*" followed by more pattern text: Google documents "*" as any run of characters, and swift-aasa \
                    matches it so, but Android's own glob matcher does not backtrack; confirm URLs this rule decides \
                    on a device, or end the pattern with the "*"
                    """
                )
            )
        }
        return diagnostics
    }

    private static func hasPercentEscape(_ pattern: String) -> Bool {
        let bytes = Array(pattern.utf8)
        return bytes.indices.contains { offset in
            bytes[offset] == UInt8(ascii: "%") && offset + 2 < bytes.count
                && [bytes[offset + 1], bytes[offset + 2]].allSatisfy { Unicode.Scalar($0).properties.isASCIIHexDigit }
        }
    }

    /// Each rule against every earlier one of its list: quadratic, so
    /// bounded by ``pairBudget``.
    private func unreachableRules(_ set: DynamicRuleSet) -> [Diagnostic] {
        let rules = set.rules
        let shapes = rules.map(DynamicRuleShape.init)
        let pairs = rules.count * (rules.count - 1) / 2
        // A proof costs about one table cell per pair of tokens of the two rules.
        let sizes = shapes.map(\.tokenCount)
        let total = sizes.reduce(0, +)
        let cells = (total * total - sizes.reduce(0) { $0 + $1 * $1 }) / 2
        guard pairs <= Self.pairBudget, cells <= Self.cellBudget else {
            return [
                .info(
                    "assetlinks.dynamic-unreachable-skipped",
                    at: set.path,
                    """
                    the list is too large (\(rules.count) rules, \(total) pattern characters) to check for rules \
                    that can never decide; skipped
                    """
                )
            ]
        }
        var diagnostics: [Diagnostic] = []
        for later in shapes.indices.dropFirst() {
            guard let earlier = shapes[..<later].firstIndex(where: { $0.covers(shapes[later]) }) else { continue }
            let (cover, covered) = (rules[earlier], rules[later])
            if covered.isExclusion, !cover.isExclusion {
                diagnostics.append(
                    .warning(
                        "assetlinks.dynamic-unreachable-exclude",
                        at: covered.path,
                        """
                        this exclude never blocks anything: the earlier rule at \(cover.path) (\(cover.display)) \
                        already opens every URL it matches; put the exclude before the broader rule
                        """
                    )
                )
            } else {
                diagnostics.append(
                    .warning(
                        "assetlinks.dynamic-unreachable-rule",
                        at: covered.path,
                        "this rule never decides: the earlier rule at \(cover.path) (\(cover.display)) matches every URL it matches"
                    )
                )
            }
        }
        return diagnostics
    }

    /// A package in several App Links statements with dynamic rules in at
    /// least one: how Android combines them is undocumented.
    private func splitPackages() -> [Diagnostic] {
        file.appLinkPackages.compactMap { package in
            let statements = file.statements.filter { $0.grantsAppLinks(to: package) }
            guard statements.count > 1, statements.contains(where: { $0.dynamicRules != nil }) else { return nil }
            return .warning(
                "assetlinks.dynamic-split",
                at: statements[1].path,
                """
                \(package) is in \(statements.count) App Links statements and at least one has dynamic rules; \
                Android's way of combining them is undocumented (swift-aasa chains the lists in file order): keep \
                one statement per package
                """
            )
        }
    }
}

/// A rule's patterns compiled for coverage checks.
private struct DynamicRuleShape {
    let path: AndroidGlob?
    let fragment: AndroidGlob?
    let query: [(name: String, glob: AndroidGlob)]

    init(_ rule: DynamicRule) {
        path = rule.pathPattern.map(AndroidGlob.init)
        fragment = rule.fragmentPattern.map(AndroidGlob.init)
        query = rule.queryPatterns.map { ($0.name, AndroidGlob($0.pattern)) }
    }

    private static let anything = AndroidGlob("*")

    /// The rule's pattern tokens, the measure of what comparing it costs.
    var tokenCount: Int {
        (path?.tokens.count ?? 1) + (fragment?.tokens.count ?? 0) + query.reduce(0) { $0 + $1.glob.tokens.count }
    }

    /// Whether this rule matches every URL `later` matches: key by key, an
    /// absent key covering anything (but an absent `#` in `later` also
    /// matches URLs without a fragment, which no `#` pattern does).
    func covers(_ later: DynamicRuleShape) -> Bool {
        if let path, !path.covers(later.path ?? Self.anything) { return false }
        if let fragment {
            guard let other = later.fragment, fragment.covers(other) else { return false }
        }
        return query.allSatisfy { name, glob in
            later.query.contains { $0.name == name && glob.covers($0.glob) }
        }
    }
}
