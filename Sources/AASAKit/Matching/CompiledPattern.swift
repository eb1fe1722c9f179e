/// One pattern (`/`, `?`, a query value or `#`) ready to match, with fast
/// paths for the common shapes (`*`, plain literals, literals and stars).
///
/// A class: a rule binds its patterns on every evaluation, and a struct of
/// this many references would be retained field by field each time.
final class CompiledPattern: Sendable {
    private enum Program: Sendable {
        case never
        case matchAll
        case literal([Unicode.Scalar])
        case glob(StarGlob)
        case automaton(PatternAutomaton)
    }

    let parsed: ParsedPattern
    private let program: Program
    private let caseInsensitive: Bool

    /// - Parameter isPath: apply §3.1 path normalisation to the pattern.
    init(_ pattern: String, isPath: Bool, caseInsensitive: Bool, variables: VariableTable) {
        let text = isPath ? PathNormalization.normalize(pattern) : pattern
        let parsed = ParsedPattern(text, variables: variables)
        self.parsed = parsed
        self.caseInsensitive = caseInsensitive
        self.isMatchAll = parsed.isMatchAll
        if parsed.failure != nil {
            program = .never
        } else if parsed.isMatchAll {
            program = .matchAll
        } else if let run = Self.literalRun(parsed.tokens) {
            program = .literal(caseInsensitive ? run.map(CaseFolding.fold) : run)
        } else if let glob = StarGlob(tokens: parsed.tokens, caseInsensitive: caseInsensitive) {
            program = .glob(glob)
        } else {
            program = .automaton(PatternAutomaton(tokens: parsed.tokens, caseInsensitive: caseInsensitive))
        }
    }

    var failure: PatternFailure? { parsed.failure }
    /// ``ParsedPattern/isMatchAll``, kept: the evaluation asks on every rule.
    let isMatchAll: Bool

    /// Whether the pattern matches all of `text`, reusing the automaton's
    /// buffers in `scratch`.
    ///
    /// - Parameter known: how many units at the start of `text` the caller
    ///   has already found equal to the pattern's leading literals, folded
    ///   (only for a case-insensitive pattern, at most its literal prefix):
    ///   a literal or a glob compares from there, with the same steps.
    func matches(_ text: LentText, known: Int = 0, steps: inout Int, scratch: inout AutomatonScratch) -> Bool {
        switch text {
        case .ascii(let bytes): matches(bytes, known: known, steps: &steps, scratch: &scratch)
        case .scalars(let scalars): matches(scalars, known: known, steps: &steps, scratch: &scratch)
        }
    }

    /// ``matches(_:known:steps:scratch:)`` over one spelling of the text.
    func matches<Unit: MatchUnit>(
        _ input: UnsafeBufferPointer<Unit>,
        known: Int = 0,
        steps: inout Int,
        scratch: inout AutomatonScratch
    ) -> Bool {
        switch program {
        case .never:
            return false
        case .matchAll:
            return true
        case .literal(let expected):
            guard expected.count == input.count else { return false }
            steps += input.count
            for offset in known..<input.count {
                if (caseInsensitive ? input[offset].folded : input[offset].scalar) != expected[offset] { return false }
            }
            return true
        case .glob(let glob):
            return glob.matches(input, known: known, steps: &steps)
        case .automaton(let automaton):
            return automaton.matches(input, steps: &steps, scratch: &scratch)
        }
    }

    private static func literalRun(_ tokens: [PatternToken]) -> [Unicode.Scalar]? {
        var run: [Unicode.Scalar] = []
        for token in tokens {
            guard case .literal(let scalar) = token else { return nil }
            run.append(scalar)
        }
        return run
    }
}
