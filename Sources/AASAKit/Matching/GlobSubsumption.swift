/// Glob inclusion by dynamic programming: does pattern A accept every
/// string pattern B accepts? B's wildcards are treated symbolically: only a
/// `*` of A can absorb a `*` of B. Sound, not complete: `false` means "not
/// provable", never "provably not".
struct GlobSubsumption {
    /// Whether A compares under `caseSensitive: false`.
    var coveringFolds: Bool
    /// Whether B compares under `caseSensitive: false`.
    var coveredFolds: Bool

    func covers(_ a: [PatternToken], _ b: [PatternToken]) -> Bool {
        // Literal runs at either end must pair up one to one: checking them
        // first rejects most pairs of a large file at once and shrinks the table.
        var a = a[...]
        var b = b[...]
        while let x = a.first, let y = b.first, x.isLiteral, y.isLiteral {
            guard coversOne(x, y) else { return false }
            a = a.dropFirst()
            b = b.dropFirst()
        }
        while let x = a.last, let y = b.last, x.isLiteral, y.isLiteral {
            guard coversOne(x, y) else { return false }
            a = a.dropLast()
            b = b.dropLast()
        }
        // A literal left facing a wildcard or nothing cannot cover it.
        if a.first?.isLiteral == true || a.last?.isLiteral == true { return false }
        return coversByTable(Array(a), Array(b))
    }

    private func coversByTable(_ a: [PatternToken], _ b: [PatternToken]) -> Bool {
        let n = a.count
        let m = b.count
        let width = m + 1
        // table[i * width + j]: a[i...] covers b[j...]; filled from the ends.
        var table = [Bool](repeating: false, count: (n + 1) * width)
        table[n * width + m] = true
        for i in stride(from: n - 1, through: 0, by: -1) {
            table[i * width + m] = a[i] == .star && table[(i + 1) * width + m]
            for j in stride(from: m - 1, through: 0, by: -1) {
                if a[i] == .star {
                    // A's `*` absorbs nothing, or B's token j and stays.
                    table[i * width + j] = table[(i + 1) * width + j] || table[i * width + j + 1]
                } else {
                    table[i * width + j] = coversOne(a[i], b[j]) && table[(i + 1) * width + j + 1]
                }
            }
        }
        return table[0]
    }

    /// Whether A's single-position token accepts everything B's token does.
    private func coversOne(_ a: PatternToken, _ b: PatternToken) -> Bool {
        switch (a, b) {
        case (.any, .literal), (.any, .any), (.any, .builtin):
            return true
        case (.literal(let x), .literal(let y)):
            if coveringFolds { return CaseFolding.fold(x) == CaseFolding.fold(y) }
            return x == y
        case (.builtin(let kind), .literal(let y)):
            // Under a folding B, `y` stands for its whole case class; a folding A
            // checks that class, and a non-folding A only meets case-free B.
            return kind.contains(y, caseInsensitive: coveringFolds)
        case (.builtin(let kind), .builtin(let other)):
            let ascii = (0x30...0x7A).compactMap(Unicode.Scalar.init)
            return ascii.filter { other.contains($0, caseInsensitive: coveredFolds) }
                .allSatisfy { kind.contains($0, caseInsensitive: coveringFolds) }
        case (.variable, .variable):
            return a == b
        default:
            return false
        }
    }

    /// Whether case-insensitive comparison accepts exactly what
    /// case-sensitive comparison accepts for these tokens: no cased letters,
    /// no letter classes, no variables.
    static func isCaseFree(_ tokens: [PatternToken]) -> Bool {
        tokens.allSatisfy { token in
            switch token {
            case .literal(let scalar): !scalar.properties.changesWhenCaseMapped
            case .builtin(let kind): kind == .digit
            case .variable: false
            case .any, .star: true
            }
        }
    }
}

extension PatternToken {
    fileprivate var isLiteral: Bool {
        if case .literal = self { return true }
        return false
    }
}
