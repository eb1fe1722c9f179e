/// Substitution variable checks (§5): references that make a rule never
/// match, variable values the system does not expand, and user variables
/// that hide a built-in.
struct VariableLints: LintRule {
    /// Whether `text` holds `$(`. A byte scan: `String.contains` on a
    /// string goes through Foundation's locale-aware search, and this runs
    /// for every query item name of every file on load.
    static func opensReference(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if previous == UInt8(ascii: "$"), byte == UInt8(ascii: "(") { return true }
            previous = byte
        }
        return false
    }

    func diagnostics(in context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let variablesPath = LintContext.applinksPath.appending("substitutionVariables")
        for (name, values) in context.userVariables.members {
            let path = variablesPath.appending(name)
            if BuiltInVariables.names.contains(name) {
                diagnostics.append(
                    .warning(
                        "lint.shadowed-builtin-variable",
                        at: path,
                        """
                        this variable replaces the built-in $(\(name)) everywhere in this file (user variables are \
                        looked up first); rename it if you meant to keep the built-in
                        """
                    )
                )
            }
            for (offset, value) in (values.arrayValue ?? []).enumerated() {
                guard let text = value.stringValue, Self.opensReference(text) else { continue }
                diagnostics.append(
                    .error(
                        "lint.nested-variable",
                        at: path.appending(offset),
                        """
                        a variable value must not contain "$("; the system does not expand a variable inside another, \
                        so this alternative does not match what it says
                        """
                    )
                )
            }
        }
        var suggestions = SuggestionCache(candidates: context.userVariables.keys + BuiltInVariables.names.sorted())
        for site in context.patterns where site.kind.expandsVariables {
            diagnostics += referenceDiagnostics(site, context: context, suggestions: &suggestions)
            if case .queryItem(let name) = site.kind, Self.opensReference(name) {
                diagnostics.append(
                    .warning(
                        "lint.variable-in-query-name",
                        at: site.path,
                        """
                        variables are not expanded in query item names; the system compares the name \(quoted(name)) \
                        literally
                        """
                    )
                )
            }
        }
        return diagnostics
    }

    private func referenceDiagnostics(
        _ site: PatternSite,
        context: LintContext,
        suggestions: inout SuggestionCache
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for reference in VariableReference.scan(site.pattern) {
            switch reference {
            case .unterminated:
                diagnostics.append(
                    .error(
                        "lint.unterminated-variable",
                        at: site.path,
                        "\"$(\" has no closing \")\"; the system never matches a rule whose pattern has one"
                    )
                )
            case .variable(let name) where !context.defines(name) && !BuiltInVariables.names.contains(name):
                var message = """
                    $(\(name)) is neither defined in applinks.substitutionVariables nor built in; the system never \
                    matches a rule that uses an undefined variable
                    """
                if let suggestion = suggestions.suggestion(for: name) {
                    message += " (did you mean $(\(suggestion))?)"
                }
                diagnostics.append(.error("lint.undefined-variable", at: site.path, message))
            case .variable:
                continue
            }
        }
        return diagnostics
    }
}

/// "Did you mean" lookups, memoised and capped: a generated file with
/// thousands of undefined names and variables must not cost a quadratic
/// number of edit distances on the origin's reload path.
struct SuggestionCache {
    static let maximumLookups = 32

    let candidates: [String]
    private var answers: [String: String?] = [:]

    init(candidates: [String]) {
        self.candidates = candidates
    }

    mutating func suggestion(for name: String) -> String? {
        if let known = answers[name] { return known }
        guard answers.count < Self.maximumLookups else { return nil }
        let answer = closestMatch(to: name, in: candidates)
        answers[name] = answer
        return answer
    }
}

/// The variables every file has (§5).
enum BuiltInVariables {
    static let names: Set<String> = ["alpha", "upper", "lower", "alnum", "digit", "xdigit", "region", "lang"]
}

extension LintContext {
    /// Whether the file defines `name` in a way the system uses: an array of
    /// alternatives (anything else defines nothing, as the model reads it).
    func defines(_ name: String) -> Bool {
        userVariables[name]?.arrayValue != nil
    }

    /// Whether a component pattern uses the built-in `name` (referenced and
    /// not redefined by the file).
    func usesBuiltIn(_ name: String) -> Bool {
        guard !defines(name) else { return false }
        return patterns.contains { site in
            site.kind.expandsVariables && VariableReference.scan(site.pattern).contains(.variable(name))
        }
    }
}

/// A `$(…)` in a pattern.
enum VariableReference: Equatable {
    case variable(String)
    /// `$(` with no `)` after it; nothing after it is a reference.
    case unterminated

    /// The references in `pattern`, in order. A `$` not followed by `(` is a
    /// literal character.
    ///
    /// `$(`, `)` are ASCII, so the scan walks UTF-8 bytes: the generic
    /// substring search it replaces was a fifth of the lints' time.
    static func scan(_ pattern: String) -> [VariableReference] {
        var references: [VariableReference] = []
        forEachReference(in: pattern) { reference, _ in references.append(reference) }
        return references
    }

    /// `pattern` with every `$(…)` reference removed: the text it matches
    /// literally (besides `*` and `?`).
    static func literalText(of pattern: String) -> String {
        // Most patterns reference no variable: no copy of them is made.
        guard VariableLints.opensReference(pattern) else { return pattern }
        var text = ""
        var copied = pattern.utf8.startIndex
        forEachReference(in: pattern) { reference, range in
            text += pattern[copied..<range.lowerBound]
            copied = range.upperBound
        }
        return text + pattern[copied...]
    }

    /// Calls `body` with each reference and the range it spans (`$(` to
    /// `)`, or `$(` to the end when unterminated).
    private static func forEachReference(
        in pattern: String,
        _ body: (VariableReference, Range<String.Index>) -> Void
    ) {
        let utf8 = pattern.utf8
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let next = utf8.index(after: index)
            guard utf8[index] == UInt8(ascii: "$"), next < utf8.endIndex, utf8[next] == UInt8(ascii: "(") else {
                index = next
                continue
            }
            let nameStart = utf8.index(after: next)
            guard let close = utf8[nameStart...].firstIndex(of: UInt8(ascii: ")")) else {
                body(.unterminated, index..<utf8.endIndex)
                return
            }
            body(.variable(String(pattern[nameStart..<close])), index..<utf8.index(after: close))
            index = utf8.index(after: close)
        }
    }
}
