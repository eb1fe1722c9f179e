/// Runs every lint over a parsed apple-app-site-association file.
///
/// The schema says whether a file is well-formed; the lints say what Apple's
/// system will actually *do* with it where that differs from what the author
/// meant: a rule that can never decide, a variable that makes a rule never
/// match, a wrongly typed value the system silently ignores. Each finding has
/// a stable `lint.<name>` code.
///
/// Lints never fail: anything they do not understand they skip, because the
/// schema reports it already.
public struct Linter: Sendable {
    public init() {}

    /// The findings for one file, in the order the lints produced them.
    ///
    /// - Parameters:
    ///   - json: the parsed file; a root that is not an object yields nothing.
    ///   - document: the lenient model of `json`, for the lints that reason
    ///     about matching (pass the one you already built, if any).
    ///   - byteCount: the size of the file as served, for the size lint.
    public func lint(_ json: JSONValue, document: AASAFile? = nil, byteCount: Int) -> [Diagnostic] {
        guard let root = json.objectValue else { return [] }
        let context = LintContext(root: root, byteCount: byteCount)
        var diagnostics: [Diagnostic] = []
        for rule in Self.rules {
            diagnostics += rule.diagnostics(in: context)
        }
        let document = document ?? AASAFile(json: json)
        diagnostics += OpensNoLinkLint.lint(document)
        diagnostics += unreachableRules(in: document)
        return diagnostics
    }

    /// Rule pairs the unreachable-rule check may compare per file. It
    /// compares every rule with each earlier rule of its entry, which is
    /// quadratic: a generated file with 6,000 rules in one entry would hold
    /// the origin's reload for minutes. 250,000 pairs is about 700 rules in
    /// one entry, far beyond hand-written files, and takes well under a
    /// second.
    static let unreachableRulePairBudget = 250_000

    private func unreachableRules(in document: AASAFile) -> [Diagnostic] {
        let details = document.appLinks?.details ?? []
        let pairs = details.reduce(0) { total, detail in total + detail.rules.count * (detail.rules.count - 1) / 2 }
        guard pairs <= Self.unreachableRulePairBudget else {
            return [
                .info(
                    "lint.unreachable-rule-skipped",
                    at: LintContext.applinksPath.appending("details"),
                    """
                    the file has too many rules per entry (\(pairs) rule pairs, more than \
                    \(Self.unreachableRulePairBudget)) to check for rules that can never decide; that check was skipped
                    """
                )
            ]
        }
        return UnreachableRuleLint.lint(document)
    }

    /// Every lint family, in reporting order.
    static let rules: [any LintRule] = [
        SizeLint(),
        ServiceLints(),
        DetailsLints(),
        AppIDLints(),
        ComponentLints(),
        VariableLints(),
        RegionCodeLint(),
        EncodingLints(),
        PatternShapeLints(),
    ]
}

/// One family of related checks.
protocol LintRule: Sendable {
    func diagnostics(in context: LintContext) -> [Diagnostic]
}
