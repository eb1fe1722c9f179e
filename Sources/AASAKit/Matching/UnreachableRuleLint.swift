/// Finds rules that can never decide anything because an earlier rule of
/// the same app entry already matches every URL they match
/// (docs/SEMANTICS.md §6.3).
///
/// - `lint.unreachable-exclude` (error): an exclusion shadowed by an
///   earlier include. The author meant to block those URLs; the system opens
///   the app for them instead.
/// - `lint.unreachable-rule` (warning): any other shadowed rule.
///
/// Only entries that decide for at least one app are checked (an entry
/// whose every app ID was listed earlier is dead as a whole, which is
/// another lint's finding). Coverage is conservative (``RuleCoverage``):
/// a rule shadowed only by several earlier rules together is not reported.
///
/// Only the earlier rules whose literal path start is a prefix of the
/// rule's own are compared (a ``PrefixTrie``): on a 400-rule file that is a
/// handful per rule instead of every earlier one.
public enum UnreachableRuleLint {
    /// The shadowed rules of `file`, in file order.
    public static func lint(_ file: AASAFile) -> [Diagnostic] {
        guard let appLinks = file.appLinks else { return [] }
        let coverage = RuleCoverage(file: file)
        var claimed = Set<String>()
        var diagnostics: [Diagnostic] = []
        for detail in appLinks.details {
            let newIDs = detail.appIDs.filter { claimed.insert($0).inserted }
            guard !newIDs.isEmpty else { continue }
            var shapes = LazyShapes(rules: detail.rules, coverage: coverage)
            // Below this many rules, building the trie costs more than
            // comparing every pair (measured on a 15-rule file).
            let earlierRules =
                detail.rules.count < Self.indexedRuleCount
                ? nil
                : PrefixTrie(detail.rules.indices.map { (Self.literalStart(shapes[$0], covering: true), $0) })
            // Without the trie, written starts rule most pairs out before any
            // pattern is parsed (``RawStart``); only rules left in a pair are.
            let starts = earlierRules == nil ? detail.rules.map { RawStart(path: $0.keys.path) } : []
            var candidates: [Int32] = []
            for index in detail.rules.indices {
                candidates.removeAll(keepingCapacity: true)
                if let earlierRules {
                    earlierRules.appendValues(
                        keyedByPrefixesOf: Self.literalStart(shapes[index], covering: false),
                        to: &candidates
                    )
                    candidates.sort()
                } else {
                    for earlier in 0..<index where starts[earlier].isComparable(with: starts[index]) {
                        candidates.append(Int32(earlier))
                    }
                }
                guard !candidates.isEmpty, !shapes[index].isBroken else { continue }
                let later = shapes[index]
                guard
                    let earlierIndex = candidates.lazy.map(Int.init).prefix(while: { $0 < index })
                        .first(where: { coverage.covers(shapes[$0], later) })
                else {
                    continue
                }
                diagnostics.append(finding(later: detail.rules[index], earlier: detail.rules[earlierIndex]))
            }
        }
        return diagnostics
    }

    /// The literal scalars a rule's (normalised) `/` pattern starts with.
    /// An absent `/` covers every path (the empty key) and, as the covered
    /// rule, reads as `/*` (the key `/`).
    ///
    /// Why only earlier rules keyed by a prefix of it can cover a rule: path
    /// coverage pairs the leading literals of both patterns one to one
    /// (``GlobSubsumption``), so a covering pattern's literal start is a
    /// prefix of the covered one's; a rule without a path constraint (`*`,
    /// none, or a start that is not literal) has the empty key and is a
    /// candidate for every rule. Keys are folded, a superset for
    /// case-sensitive rules; ``RuleCoverage/covers(_:_:)`` decides.
    /// The fewest rules in one entry for which earlier rules are indexed.
    static let indexedRuleCount = 32

    private static func literalStart(_ shape: RuleCoverage.Shape, covering: Bool) -> [Unicode.Scalar] {
        guard let path = shape.path else { return covering ? [] : ["/"] }
        return path.isMatchAll ? [] : RuleIndex.literalPrefix(path.tokens)
    }

    private static func finding(later: Rule, earlier: Rule) -> Diagnostic {
        switch (earlier.isExclusion, later.isExclusion) {
        case (false, true):
            return .error(
                "lint.unreachable-exclude",
                at: later.path,
                "This exclusion never applies: the earlier rule at \(earlier.path) matches every URL it matches, "
                    + "so the system opens the app for these URLs instead of blocking them. "
                    + "Move the exclusion before \(earlier.path)."
            )
        case (true, _):
            return .warning(
                "lint.unreachable-rule",
                at: later.path,
                "This rule never decides anything: the earlier exclusion at \(earlier.path) "
                    + "already blocks every URL it matches."
            )
        case (false, false):
            return .warning(
                "lint.unreachable-rule",
                at: later.path,
                "This rule never decides anything: the earlier rule at \(earlier.path) "
                    + "already opens the app for every URL it matches."
            )
        }
    }
}
