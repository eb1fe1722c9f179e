/// One pattern (`/`, `?`, a query value or `#`) ready to match, with fast
/// paths for the common shapes (`*`, plain literals).
struct CompiledPattern: Sendable {
    private enum Program: Sendable {
        case never
        case matchAll
        case literal([Unicode.Scalar])
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
        if parsed.failure != nil {
            program = .never
        } else if parsed.isMatchAll {
            program = .matchAll
        } else if let run = Self.literalRun(parsed.tokens) {
            program = .literal(caseInsensitive ? run.map(CaseFolding.fold) : run)
        } else {
            program = .automaton(PatternAutomaton(tokens: parsed.tokens, caseInsensitive: caseInsensitive))
        }
    }

    var failure: PatternFailure? { parsed.failure }
    var isMatchAll: Bool { parsed.isMatchAll }

    func matches(_ input: [Unicode.Scalar], steps: inout Int) -> Bool {
        switch program {
        case .never:
            return false
        case .matchAll:
            return true
        case .literal(let expected):
            guard expected.count == input.count else { return false }
            steps += input.count
            if caseInsensitive {
                return zip(expected, input).allSatisfy { $0 == CaseFolding.fold($1) }
            }
            return expected == input
        case .automaton(let automaton):
            return automaton.matches(input, steps: &steps)
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
