import Testing

@testable import AASAKit

/// ``StarGlob`` over the bytes of an ASCII text (its middle runs found by
/// their first unit when it is one byte: by `memchr` in a long text)
/// against the same glob over the text's scalars (one unit at a time) and
/// a backtracking reference: the same answer and the same step count for
/// random globs and texts.
@Suite struct StarGlobTests {
    /// Few units, so that runs recur and are found, missed and found late.
    static let alphabet: [Unicode.Scalar] = ["a", "A", "b", "/", ".", "K"]
    /// With the Kelvin sign, which folds to `k`: a run may start with a
    /// unit no byte is, or one that only a folded byte meets.
    static let patternAlphabet = alphabet + ["\u{212A}"]

    /// Up to eight random tokens and at least one star (a glob has one).
    static func randomTokens(_ random: inout TestRandom) -> [PatternToken] {
        var tokens: [PatternToken] = []
        for _ in 0..<random.below(8) {
            tokens.append(
                random.chance(20) ? .star : random.chance(10) ? .any : .literal(random.pick(Self.patternAlphabet))
            )
        }
        tokens.insert(.star, at: random.below(tokens.count + 1))
        return tokens
    }

    @Test(arguments: 0..<4)
    func bytesAgreeWithScalarsAndTheReference(seed: UInt64) throws {
        var random = TestRandom(seed: seed)
        var checked = 0
        for _ in 0..<4_000 {
            let caseInsensitive = random.chance(50)
            let tokens = Self.randomTokens(&random)
            guard let glob = StarGlob(tokens: tokens, caseInsensitive: caseInsensitive) else { continue }
            // Now and then longer than the span searched without `memchr`.
            let count = random.chance(5) ? 70 + random.below(20) : random.below(24)
            let text = (0..<count).map { _ in random.pick(Self.alphabet) }
            let bytes = text.map { UInt8($0.value) }
            var byteSteps = 0
            var scalarSteps = 0
            let byByte = bytes.withUnsafeBufferPointer { glob.matches($0, steps: &byteSteps) }
            let byScalar = text.withUnsafeBufferPointer { glob.matches($0, steps: &scalarSteps) }
            let expected = Self.matches(tokens[...], text[...], caseInsensitive: caseInsensitive)
            let shown = "\(tokens) \(String(String.UnicodeScalarView(text))) ci=\(caseInsensitive)"
            #expect(byByte == expected, "\(shown)")
            #expect(byScalar == expected, "\(shown)")
            #expect(byteSteps == scalarSteps, "\(shown)")
            checked += 1
        }
        #expect(checked > 1_000)
    }

    /// A case-insensitive glob told that the text's first units already
    /// equal its leading literals (folded), as the rule index knows of a
    /// rule it offers, answers and counts steps as when it compares them:
    /// any text, any number of those units up to the ones that agree.
    @Test(arguments: 0..<4)
    func aKnownPrefixAnswersAndCountsAsComparingIt(seed: UInt64) throws {
        var random = TestRandom(seed: seed)
        var checked = 0
        for _ in 0..<4_000 {
            let tokens = Self.randomTokens(&random)
            guard let glob = StarGlob(tokens: tokens, caseInsensitive: true) else { continue }
            let literals = RuleIndex.literalPrefix(tokens)
            // Texts that start with the literals (in other cases) half the time.
            var text = (0..<random.below(24)).map { _ in random.pick(Self.alphabet) }
            if random.chance(50) {
                text = literals.map { CaseFolding.fold($0) == "k" && random.chance(50) ? "K" : $0 } + text
            }
            let agreeing = zip(literals, text).prefix { CaseFolding.fold($0) == CaseFolding.fold($1) }.count
            let known = random.below(agreeing + 1)
            let bytes = text.map { UInt8(truncatingIfNeeded: $0.value) }
            var steps = 0
            var knownSteps = 0
            let compared = text.withUnsafeBufferPointer { glob.matches($0, steps: &steps) }
            let skipped = text.withUnsafeBufferPointer { glob.matches($0, known: known, steps: &knownSteps) }
            let shown = "\(tokens) \(String(String.UnicodeScalarView(text))) known=\(known)"
            #expect(skipped == compared, "\(shown)")
            #expect(knownSteps == steps, "\(shown)")
            if text.allSatisfy(\.isASCII) {
                var byteSteps = 0
                let byByte = bytes.withUnsafeBufferPointer { glob.matches($0, known: known, steps: &byteSteps) }
                #expect(byByte == compared, "\(shown)")
                #expect(byteSteps == steps, "\(shown)")
            }
            checked += known > 0 ? 1 : 0
        }
        #expect(checked > 500)
    }

    /// Backtracking: a star takes any number of units.
    static func matches(
        _ tokens: ArraySlice<PatternToken>,
        _ text: ArraySlice<Unicode.Scalar>,
        caseInsensitive: Bool
    )
        -> Bool
    {
        guard let token = tokens.first else { return text.isEmpty }
        let rest = tokens.dropFirst()
        switch token {
        case .star:
            return (0...text.count).contains { matches(rest, text.dropFirst($0), caseInsensitive: caseInsensitive) }
        case .any:
            return !text.isEmpty && matches(rest, text.dropFirst(), caseInsensitive: caseInsensitive)
        case .literal(let scalar):
            guard let unit = text.first else { return false }
            let same = caseInsensitive ? CaseFolding.fold(unit) == CaseFolding.fold(scalar) : unit == scalar
            return same && matches(rest, text.dropFirst(), caseInsensitive: caseInsensitive)
        case .builtin, .variable:
            return false
        }
    }
}
