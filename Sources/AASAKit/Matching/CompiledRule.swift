/// A rule with every pattern compiled, and its effective flags.
///
/// A class so that walking a file's rules per evaluation retains one
/// reference per rule instead of copying every field.
final class CompiledRule: Sendable {
    /// The `?` key compiled.
    enum Query: Sendable {
        case string(CompiledPattern)
        case items([(name: [Unicode.Scalar], pattern: CompiledPattern)])
    }

    /// What one rule says about one URL.
    enum Outcome {
        case matched
        case notMatched
        /// A compared component cannot be percent-decoded (`percentEncoded: false`).
        case undecodable(MatchInput.Component)
        /// A pattern can never match (undefined variable, too complex...).
        case broken(PatternFailure)
    }

    let rule: Rule
    let detailIndex: Int
    let path: CompiledPattern?
    let query: Query?
    let fragment: CompiledPattern?
    /// Every pattern's variables, in order.
    let variables: [String]
    /// The first reason a pattern of the rule can never match.
    let failure: PatternFailure?
    /// The result when this rule decides, without notes.
    let decided: MatchResult
    /// `path` unless it matches everything, not retained (the rule keeps
    /// it): every candidate rule of every URL compares its path, and a
    /// retain there made the cores evaluating a list contend for the
    /// pattern's reference count.
    private let pathToCompare: Unmanaged<CompiledPattern>?
    /// How many scalars at the start of every path this rule is evaluated
    /// against are known to equal its path pattern's literal prefix,
    /// folded: ``RuleIndex`` offers the rule only for a path its trie
    /// walked that prefix along (folded, in the spelling the rule compares;
    /// for an undecodable path the rule stops before comparing). Zero for
    /// a case-sensitive rule (the walk folds) and for a rule the index
    /// offers every path.
    private let knownPathPrefix: Int
    /// The query's string pattern and ``fragment``, unless absent or
    /// matching everything, not retained like ``pathToCompare``: bound from
    /// the properties, each was retained and released per URL it was
    /// compared with.
    private let queryToCompare: Unmanaged<CompiledPattern>?
    private let fragmentToCompare: Unmanaged<CompiledPattern>?

    init(rule: Rule, detailIndex: Int, variables table: VariableTable) {
        self.rule = rule
        self.detailIndex = detailIndex
        let keys = rule.keys
        let caseInsensitive = !keys.caseSensitive
        func compile(_ pattern: String, isPath: Bool = false) -> CompiledPattern {
            CompiledPattern(pattern, isPath: isPath, caseInsensitive: caseInsensitive, variables: table)
        }
        path = keys.path.map { compile($0, isPath: true) }
        pathToCompare = path.flatMap { $0.isMatchAll ? nil : Unmanaged.passUnretained($0) }
        fragment = keys.fragment.map { compile($0) }
        switch keys.query {
        case .string(let pattern)?:
            query = .string(compile(pattern))
        case .items(let items)?:
            query = .items(items.map { (Array($0.name.unicodeScalars), compile($0.pattern)) })
        case .ignoredDictionary?, nil:
            query = nil
        }
        queryToCompare =
            if case .string(let pattern)? = query, !pattern.isMatchAll { Unmanaged.passUnretained(pattern) } else {
                nil
            }
        fragmentToCompare = fragment.flatMap { $0.isMatchAll ? nil : Unmanaged.passUnretained($0) }
        var patterns = [path].compactMap { $0 }
        switch query {
        case .string(let pattern)?: patterns.append(pattern)
        case .items(let items)?: patterns += items.map(\.pattern)
        case nil: break
        }
        patterns += [fragment].compactMap { $0 }
        var names: [String] = []
        for name in patterns.flatMap(\.parsed.variables) where !names.contains(name) {
            names.append(name)
        }
        variables = names
        failure = patterns.lazy.compactMap(\.failure).first
        decided = AASAMatcher.decided(by: rule, detailIndex: detailIndex, variables: names)
        knownPathPrefix =
            caseInsensitive && failure == nil && pathToCompare != nil
            ? RuleIndex.literalPrefix(path!.parsed.tokens).count : 0
    }

    /// Whether every key the rule specifies matches `input`.
    func evaluate(_ input: inout MatchInput, steps: inout Int, scratch: inout AutomatonScratch) -> Outcome {
        if let failure { return .broken(failure) }
        let decoded = !rule.keys.percentEncoded
        if let pathToCompare {
            // Read out here: the closure reading the property retained the rule.
            let known = knownPathPrefix
            let matched = input.withPath(decoded: decoded) { value in
                pathToCompare._withUnsafeGuaranteedRef { path in
                    path.matches(value, known: known, steps: &steps, scratch: &scratch)
                }
            }
            guard let matched else { return .undecodable(.path) }
            guard matched else { return .notMatched }
        }
        if let queryToCompare {
            let matched = input.withQuery(decoded: decoded) { value in
                queryToCompare._withUnsafeGuaranteedRef { $0.matches(value, steps: &steps, scratch: &scratch) }
            }
            guard let matched else { return .undecodable(.query) }
            guard matched else { return .notMatched }
        } else if case .items(let patterns)? = query, !patterns.allSatisfy(\.pattern.isMatchAll) {
            guard let items = input.queryItems(decoded: decoded) else { return .undecodable(.query) }
            for (name, pattern) in patterns
            where !items.valuesNamed(name, match: pattern, steps: &steps, scratch: &scratch) {
                return .notMatched
            }
        }
        if let fragmentToCompare {
            let matched = input.withFragment(decoded: decoded) { value in
                fragmentToCompare._withUnsafeGuaranteedRef { $0.matches(value, steps: &steps, scratch: &scratch) }
            }
            guard let matched else { return .undecodable(.fragment) }
            guard matched else { return .notMatched }
        }
        return .matched
    }
}
