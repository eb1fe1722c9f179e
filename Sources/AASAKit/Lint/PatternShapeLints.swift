/// Patterns whose shape misleads: a backslash (escaping is undocumented) and
/// nesting close to the depth at which Apple's matcher gives up (§5).
struct PatternShapeLints: LintRule {
    /// Apple's recursion limit: past it a pattern is "too complex" and the
    /// rule never matches.
    static let maximumDepth = 64
    /// Where the warning starts: three quarters of the limit, far beyond any
    /// pattern written by hand, so it only fires on generated patterns
    /// heading for the limit.
    static let warningDepth = 48

    func diagnostics(in context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for site in context.patterns {
            if site.pattern.utf8.contains(UInt8(ascii: "\\")) {
                diagnostics.append(
                    .warning(
                        "lint.backslash-in-pattern",
                        at: site.path,
                        """
                        the pattern contains a backslash; AASA patterns have no documented escape character, and \
                        swift-aasa treats "\\" as a literal character (unconfirmed on Apple's side), so "\\*" is a \
                        backslash followed by the wildcard, not a literal "*"
                        """
                    )
                )
            }
            let depth = Self.depth(of: site.pattern, expandsVariables: site.kind.expandsVariables)
            if depth > Self.maximumDepth {
                diagnostics.append(
                    .error(
                        "lint.pattern-too-complex",
                        at: site.path,
                        """
                        the pattern nests \(depth) levels (each non-trailing "*" and each variable is one); Apple's \
                        matcher gives up past \(Self.maximumDepth) ("pattern too complex") and the rule never matches
                        """
                    )
                )
            } else if depth >= Self.warningDepth {
                diagnostics.append(
                    .warning(
                        "lint.pattern-too-complex",
                        at: site.path,
                        """
                        the pattern nests \(depth) levels (each non-trailing "*" and each variable is one), close to \
                        the \(Self.maximumDepth) past which Apple's matcher gives up and the rule never matches
                        """
                    )
                )
            }
        }
        return diagnostics
    }

    /// The recursion levels a pattern costs Apple's matcher: one per run of
    /// `*` that does not end the pattern, one per `$(…)`.
    static func depth(of pattern: String, expandsVariables: Bool) -> Int {
        // Most patterns reference no variable: they are their own literal
        // text, and neither a copy without references nor a scan is made.
        let hasReferences = expandsVariables && VariableLints.opensReference(pattern)
        let literal = hasReferences ? VariableReference.literalText(of: pattern) : pattern
        let variables = hasReferences ? VariableReference.scan(pattern).count : 0
        // `*` is ASCII and no byte of a multi-byte UTF-8 sequence is one,
        // so runs of stars are counted over bytes.
        var stars = 0
        var previousWasStar = false
        for byte in literal.utf8 {
            let isStar = byte == UInt8(ascii: "*")
            if isStar, !previousWasStar { stars += 1 }
            previousWasStar = isStar
        }
        if previousWasStar { stars -= 1 }
        return max(stars, 0) + variables
    }
}
