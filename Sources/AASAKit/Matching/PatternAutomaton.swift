/// A pattern compiled to a Thompson NFA and run as a set-of-states
/// simulation, so matching costs O(states × input) on every input: no
/// backtracking, no regular expressions, nothing exponential
/// (docs/SEMANTICS.md §5.7).
///
/// Variable alternatives become sub-automata that rejoin the rest of the
/// pattern; literal-only alternatives (`$(region)`, `$(lang)`) share their
/// prefixes in a trie so a position activates few states.
struct PatternAutomaton: Sendable {
    enum State: Sendable {
        /// Consume this scalar (folded already when case-insensitive).
        case scalar(Unicode.Scalar, next: Int)
        /// Consume any one scalar.
        case any(next: Int)
        /// Consume one scalar of the built-in class.
        case builtin(BuiltinClass, next: Int)
        /// `*`: consume any scalar and stay, or move on without consuming.
        case star(next: Int)
        /// Move on to each target without consuming.
        case split([Int])
        case accept
    }

    private(set) var states: [State]
    private(set) var start: Int
    let caseInsensitive: Bool
    private static let acceptState = 0

    init(tokens: [PatternToken], caseInsensitive: Bool) {
        self.caseInsensitive = caseInsensitive
        states = [.accept]
        start = 0
        start = build(tokens[...], then: Self.acceptState)
    }

    /// Runs the automaton over `input`; `steps` counts the state visits, the
    /// measure of work the complexity tests use.
    func matches(_ input: [Unicode.Scalar], steps: inout Int) -> Bool {
        var scratch = AutomatonScratch()
        return matches(input, steps: &steps, scratch: &scratch)
    }

    /// ``matches(_:steps:)`` with the state lists of `scratch`, which one
    /// evaluation (or a whole list of URLs) reuses for every automaton.
    func matches(_ input: [Unicode.Scalar], steps: inout Int, scratch: inout AutomatonScratch) -> Bool {
        input.withUnsafeBufferPointer { matches($0, steps: &steps, scratch: &scratch) }
    }

    /// ``matches(_:steps:scratch:)`` over bytes of an ASCII text or scalars
    /// (``MatchUnit``).
    func matches<Unit: MatchUnit>(
        _ input: UnsafeBufferPointer<Unit>,
        steps: inout Int,
        scratch: inout AutomatonScratch
    ) -> Bool {
        var marks: [Int] = []
        var current: [Int] = []
        var next: [Int] = []
        var stack: [Int] = []
        swap(&marks, &scratch.marks)
        swap(&current, &scratch.current)
        swap(&next, &scratch.next)
        swap(&stack, &scratch.stack)
        defer {
            swap(&marks, &scratch.marks)
            swap(&current, &scratch.current)
            swap(&next, &scratch.next)
            swap(&stack, &scratch.stack)
        }
        if marks.count < states.count {
            marks.append(contentsOf: repeatElement(Int.min, count: states.count - marks.count))
        }
        // Generations only grow across runs, so marks left by an earlier run
        // (of any automaton) never equal a generation of this one.
        let base = scratch.generation + 1
        scratch.generation = base + input.count
        current.removeAll(keepingCapacity: true)
        addClosure(start, generation: base, into: &current, marks: &marks, stack: &stack, steps: &steps)
        for (offset, raw) in input.enumerated() {
            guard !current.isEmpty else { return false }
            let scalar = caseInsensitive ? raw.folded : raw.scalar
            let generation = base + offset + 1
            next.removeAll(keepingCapacity: true)
            for state in current {
                steps += 1
                switch states[state] {
                case .scalar(let expected, let target) where expected == scalar:
                    addClosure(target, generation: generation, into: &next, marks: &marks, stack: &stack, steps: &steps)
                case .any(let target):
                    addClosure(target, generation: generation, into: &next, marks: &marks, stack: &stack, steps: &steps)
                case .builtin(let kind, let target) where kind.contains(raw.scalar, caseInsensitive: caseInsensitive):
                    addClosure(target, generation: generation, into: &next, marks: &marks, stack: &stack, steps: &steps)
                case .star:
                    addClosure(state, generation: generation, into: &next, marks: &marks, stack: &stack, steps: &steps)
                default:
                    break
                }
            }
            swap(&current, &next)
        }
        return marks[Self.acceptState] == base + input.count
    }

    private func addClosure(
        _ state: Int,
        generation: Int,
        into list: inout [Int],
        marks: inout [Int],
        stack: inout [Int],
        steps: inout Int
    ) {
        stack.append(state)
        while let state = stack.popLast() {
            guard marks[state] != generation else { continue }
            marks[state] = generation
            steps += 1
            switch states[state] {
            case .split(let targets):
                stack.append(contentsOf: targets.reversed())
            case .star(let target):
                list.append(state)
                stack.append(target)
            case .accept:
                break
            default:
                list.append(state)
            }
        }
    }

    // MARK: - Construction (back to front, so every state knows its successor)

    private mutating func add(_ state: State) -> Int {
        states.append(state)
        return states.count - 1
    }

    private mutating func build(_ tokens: ArraySlice<PatternToken>, then continuation: Int) -> Int {
        var next = continuation
        for token in tokens.reversed() {
            switch token {
            case .literal(let scalar):
                next = add(.scalar(caseInsensitive ? CaseFolding.fold(scalar) : scalar, next: next))
            case .any:
                next = add(.any(next: next))
            case .star:
                next = add(.star(next: next))
            case .builtin(let kind):
                next = add(.builtin(kind, next: next))
            case .variable(_, let alternatives):
                next = buildAlternatives(alternatives, then: next)
            }
        }
        return next
    }

    private mutating func buildAlternatives(_ alternatives: [[PatternToken]], then continuation: Int) -> Int {
        var literalRuns: [[Unicode.Scalar]] = []
        var targets: [Int] = []
        for alternative in alternatives {
            if let run = Self.literalRun(alternative) {
                literalRuns.append(run.map { caseInsensitive ? CaseFolding.fold($0) : $0 })
            } else {
                targets.append(build(alternative[...], then: continuation))
            }
        }
        if !literalRuns.isEmpty {
            targets.append(buildTrie(literalRuns[...].map { $0[...] }, then: continuation))
        }
        // No alternatives at all: a dead state, the variable matches nothing.
        return targets.count == 1 ? targets[0] : add(.split(targets))
    }

    private mutating func buildTrie(_ runs: [ArraySlice<Unicode.Scalar>], then continuation: Int) -> Int {
        var targets: [Int] = []
        var groups: [Unicode.Scalar: [ArraySlice<Unicode.Scalar>]] = [:]
        var order: [Unicode.Scalar] = []
        for run in runs {
            guard let first = run.first else {
                if !targets.contains(continuation) { targets.append(continuation) }
                continue
            }
            if groups[first] == nil { order.append(first) }
            groups[first, default: []].append(run.dropFirst())
        }
        for first in order {
            let rest = buildTrie(groups[first] ?? [], then: continuation)
            targets.append(add(.scalar(first, next: rest)))
        }
        return targets.count == 1 ? targets[0] : add(.split(targets))
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

/// The state lists and marks of ``PatternAutomaton/matches(_:steps:scratch:)``,
/// kept between runs so that a run allocates nothing once they have grown.
struct AutomatonScratch {
    fileprivate var marks: [Int] = []
    fileprivate var current: [Int] = []
    fileprivate var next: [Int] = []
    fileprivate var stack: [Int] = []
    /// The last generation handed out.
    fileprivate var generation = 0
}
