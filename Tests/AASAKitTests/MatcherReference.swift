@testable import AASAKit

/// The matcher written the straightforward way, as the differential tests'
/// reference: every rule of the entry in order, every pattern matched by a
/// memoised recursion over its tokens (no index, no automaton, no literal
/// or glob shortcuts, no reused buffers). It shares only what defines the
/// semantics: the model's effective keys, variable resolution, path
/// normalisation, percent-decoding and case folding.
struct MatcherReference {
    /// What the reference decides: the decision, the deciding rule
    /// (entry, index) and the notes, worded as ``AASAMatcher`` words them.
    struct Outcome: Equatable, CustomStringConvertible {
        var decision: MatchDecision
        var rule: [Int]?
        var notes: [String]

        var description: String { "\(decision) \(rule.map { "\($0)" } ?? "-") \(notes)" }
    }

    let file: AASAFile
    let table: VariableTable

    init(file: AASAFile) {
        self.file = file
        table = VariableTable(userVariables: file.appLinks?.substitutionVariables ?? [:], codes: .snapshot)
    }

    /// The outcome for `url` and `appID`, the host not checked.
    func evaluate(_ url: AASAURL, appID: String) -> Outcome {
        guard let detail = file.appLinks?.details.first(where: { $0.appIDs.contains(appID) }) else {
            return Outcome(decision: .none, notes: [])
        }
        var notes: [String] = []
        func note(_ text: String) { if !notes.contains(text) { notes.append(text) } }
        rules: for rule in detail.rules {
            let keys = rule.keys
            let ci = !keys.caseSensitive
            let decoded = !keys.percentEncoded
            var patterns: [ParsedPattern] = []
            let path = keys.path.map { ParsedPattern(PathNormalization.normalize($0), variables: table) }
            let fragment = keys.fragment.map { ParsedPattern($0, variables: table) }
            var queryString: ParsedPattern?
            var queryItems: [(String, ParsedPattern)]?
            switch keys.query {
            case .string(let text)?: queryString = ParsedPattern(text, variables: table)
            case .items(let items)?: queryItems = items.map { ($0.name, ParsedPattern($0.pattern, variables: table)) }
            default: break
            }
            patterns +=
                [path, queryString].compactMap { $0 } + (queryItems ?? []).map(\.1) + [fragment].compactMap { $0 }
            if let failure = patterns.lazy.compactMap(\.failure).first {
                note("rule \(rule.path) never matches: \(failure)")
                continue
            }
            func undecodable(_ component: String) -> String {
                "the URL's \(component) has an invalid percent-escape, so rules with percentEncoded false cannot match it"
            }
            func text(_ raw: String) -> String? { decoded ? PercentEncoding.decode(Substring(raw)) : raw }
            if let path, !path.isMatchAll {
                guard let value = text(url.path) else {
                    note(undecodable("path"))
                    continue
                }
                guard Self.matches(path.tokens, PathNormalization.normalize(value), ci) else { continue }
            }
            if let queryString, !queryString.isMatchAll {
                guard let value = text(url.query ?? "") else {
                    note(undecodable("query"))
                    continue
                }
                guard Self.matches(queryString.tokens, value, ci) else { continue }
            } else if let queryItems, !queryItems.allSatisfy(\.1.isMatchAll) {
                var items: [(String, String)] = []
                for item in (url.query ?? "").split(separator: "&", omittingEmptySubsequences: false)
                where !(url.query ?? "").isEmpty {
                    let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    guard let name = text(String(parts[0])), let value = text(parts.count > 1 ? String(parts[1]) : "")
                    else {
                        note(undecodable("query"))
                        continue rules
                    }
                    items.append((name, value))
                }
                for (name, pattern) in queryItems {
                    // By scalars: NFC and NFD names differ (SEMANTICS.md, no
                    // Unicode normalisation), where `==` of strings is canonical.
                    let values = items.filter { $0.0.unicodeScalars.elementsEqual(name.unicodeScalars) }.map(\.1)
                    for value in values.isEmpty ? [""] : values where !Self.matches(pattern.tokens, value, ci) {
                        continue rules
                    }
                }
            }
            if let fragment, !fragment.isMatchAll {
                guard let value = text(url.fragment ?? "") else {
                    note(undecodable("fragment"))
                    continue
                }
                guard Self.matches(fragment.tokens, value, ci) else { continue }
            }
            return Outcome(
                decision: keys.exclude ? .blocked : .matched,
                rule: [detail.index, rule.index],
                notes: notes
            )
        }
        return Outcome(decision: .none, notes: notes)
    }

    /// Whether `tokens` match all of `text`, by recursion (memoised for
    /// the pattern's own tokens; a variable's alternative is spliced in
    /// front of the rest and matched afresh).
    static func matches(_ tokens: [PatternToken], _ text: String, _ ci: Bool) -> Bool {
        let input = Array(text.unicodeScalars)
        var memo: [Int: Bool] = [:]
        func match(_ tokens: [PatternToken], _ index: Int, _ at: Int, outer: Bool) -> Bool {
            let key = index * (input.count + 1) + at
            if outer, let known = memo[key] { return known }
            let result: Bool
            if index < tokens.count {
                switch tokens[index] {
                case .literal(let scalar):
                    result =
                        at < input.count
                        && (ci ? CaseFolding.fold(scalar) == CaseFolding.fold(input[at]) : scalar == input[at])
                        && match(tokens, index + 1, at + 1, outer: outer)
                case .any:
                    result = at < input.count && match(tokens, index + 1, at + 1, outer: outer)
                case .builtin(let kind):
                    result =
                        at < input.count && kind.contains(input[at], caseInsensitive: ci)
                        && match(tokens, index + 1, at + 1, outer: outer)
                case .star:
                    result = (at...input.count).contains { match(tokens, index + 1, $0, outer: outer) }
                case .variable(_, let alternatives):
                    let rest = tokens[(index + 1)...]
                    result = alternatives.contains { match($0 + rest, 0, at, outer: false) }
                }
            } else {
                result = at == input.count
            }
            if outer { memo[key] = result }
            return result
        }
        return match(tokens, 0, 0, outer: true)
    }
}
