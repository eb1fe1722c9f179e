/// Decides whether one rule *covers* another: every URL the later rule
/// matches, the earlier one matches too, so the later one can never decide
/// (docs/SEMANTICS.md §6.3).
///
/// Conservative: `true` only when it is provable key by key. A key absent
/// from the covering rule covers anything; patterns are compared with glob
/// subsumption (``GlobSubsumption``), treating the covered rule's wildcards
/// symbolically; a variable is only known to cover the same variable at the
/// same place. Rules that can never match (undefined variable, too complex)
/// are never reported as covering or covered: other lints report them.
public struct RuleCoverage: Sendable {
    private let variables: VariableTable
    /// What an absent `/` reads as: every normalised URL path starts with "/".
    private let anyPath: ParsedPattern
    /// What an absent `?` or `#` reads as.
    private let anything: ParsedPattern

    /// Coverage for the rules of `file`, resolving its substitution variables.
    public init(file: AASAFile) {
        self.init(
            variables: VariableTable(userVariables: file.appLinks?.substitutionVariables ?? [:])
        )
    }

    init(variables: VariableTable) {
        self.variables = variables
        self.anyPath = ParsedPattern("/*", variables: variables)
        self.anything = ParsedPattern("*", variables: variables)
    }

    /// Whether `earlier` matches every URL that `later` matches.
    public func covers(_ earlier: Rule, _ later: Rule) -> Bool {
        covers(shape(of: earlier), shape(of: later))
    }

    // MARK: - Rule shapes

    /// A rule's patterns parsed once, for repeated comparisons. A class: the
    /// lint compares every pair of a file's rules, and copying a struct of
    /// this many references per comparison dominated the run time.
    final class Shape: Sendable {
        enum Query: Sendable {
            case string(ParsedPattern)
            case items([String: ParsedPattern])
        }

        let keys: ComponentKeys
        let path: ParsedPattern?
        let query: Query?
        let fragment: ParsedPattern?
        let isBroken: Bool

        init(keys: ComponentKeys, path: ParsedPattern?, query: Query?, fragment: ParsedPattern?, isBroken: Bool) {
            self.keys = keys
            self.path = path
            self.query = query
            self.fragment = fragment
            self.isBroken = isBroken
        }
    }

    func shape(of rule: Rule) -> Shape {
        let keys = rule.keys
        let path = keys.path.map { ParsedPattern(Self.normalizedPath($0), variables: variables) }
        let fragment = keys.fragment.map { ParsedPattern($0, variables: variables) }
        var query: Shape.Query?
        switch keys.query {
        case .string(let pattern)?:
            query = .string(ParsedPattern(pattern, variables: variables))
        case .items(let items)?:
            query = .items(Dictionary(items.map { ($0.name, ParsedPattern($0.pattern, variables: variables)) }) { $1 })
        case .ignoredDictionary?, nil:
            query = nil
        }
        var patterns = [path, fragment].compactMap { $0 }
        switch query {
        case .string(let pattern)?: patterns.append(pattern)
        case .items(let items)?: patterns += items.values
        case nil: break
        }
        return Shape(
            keys: keys,
            path: path,
            query: query,
            fragment: fragment,
            isBroken: patterns.contains { $0.failure != nil }
        )
    }

    /// ``PathNormalization/normalize(_:)``, the string built from UTF-8
    /// bytes: appending the normalised scalars to a string one at a time
    /// was 40 % of building a shape.
    static func normalizedPath(_ path: String) -> String {
        var scalars: [Unicode.Scalar] = []
        // Normalising adds at most a leading and a trailing `/` (and the
        // UTF-8 count bounds the scalars'): one allocation, not a growing array.
        scalars.reserveCapacity(path.utf8.count + 2)
        PathNormalization.normalize(path.unicodeScalars, into: &scalars)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.count)
        for scalar in scalars {
            UTF8.encode(scalar) { bytes.append($0) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func covers(_ earlier: Shape, _ later: Shape) -> Bool {
        guard !earlier.isBroken, !later.isBroken else { return false }
        return coversPattern(earlier.path, later.path, absent: anyPath, earlier, later)
            && coversPattern(earlier.fragment, later.fragment, absent: anything, earlier, later)
            && coversQuery(earlier, later)
    }

    private func coversQuery(_ earlier: Shape, _ later: Shape) -> Bool {
        switch (earlier.query, later.query) {
        case (nil, _):
            return true
        case (.string(let covering)?, .string(let covered)?):
            return coversPattern(covering, covered, absent: anything, earlier, later)
        case (.string(let covering)?, _):
            return covering.isMatchAll
        case (.items(let covering)?, .items(let covered)?):
            return covering.allSatisfy { name, pattern in
                // A name the later rule does not constrain can hold any value.
                coversPattern(pattern, covered[name], absent: anything, earlier, later)
            }
        case (.items(let covering)?, _):
            return covering.values.allSatisfy(\.isMatchAll)
        }
    }

    /// Whether pattern `covering` (of `earlier`) accepts everything
    /// `covered` (of `later`) accepts, given each rule's flags. A `nil`
    /// `covered` is a key the later rule leaves open: any value, read as
    /// `absent`.
    private func coversPattern(
        _ covering: ParsedPattern?,
        _ covered: ParsedPattern?,
        absent: ParsedPattern,
        _ earlier: Shape,
        _ later: Shape
    ) -> Bool {
        guard let covering else { return true }
        if covering.isMatchAll { return true }
        guard let covered else {
            // The later rule accepts undecodable values too; a decoding
            // earlier rule would not.
            return earlier.keys.percentEncoded
                && GlobSubsumption(coveringFolds: !earlier.keys.caseSensitive, coveredFolds: false)
                    .covers(covering.tokens, absent.tokens)
        }
        // Encoded and decoded spellings are different languages.
        guard earlier.keys.percentEncoded == later.keys.percentEncoded else { return false }
        let coveringFolds = !earlier.keys.caseSensitive
        let coveredFolds = !later.keys.caseSensitive
        // A case-sensitive pattern covers a case-insensitive one only when
        // case cannot matter to the latter.
        if !coveringFolds, coveredFolds, !GlobSubsumption.isCaseFree(covered.tokens) { return false }
        return GlobSubsumption(coveringFolds: coveringFolds, coveredFolds: coveredFolds)
            .covers(covering.tokens, covered.tokens)
    }
}
