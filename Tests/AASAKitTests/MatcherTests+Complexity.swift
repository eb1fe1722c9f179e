import Testing

@testable import AASAKit

/// The matcher must never be exponential (docs/SEMANTICS.md §5): work is
/// counted in automaton steps, never timed.
@Suite struct ComplexityTests {
    static let variables = VariableTable(userVariables: ["v": ["a", "aa", "a*", "?a"]], codes: .snapshot)

    static func steps(_ pattern: String, _ input: String) -> (matched: Bool, steps: Int) {
        let parsed = ParsedPattern(pattern, variables: variables)
        let automaton = PatternAutomaton(tokens: parsed.tokens, caseInsensitive: false)
        var steps = 0
        let matched = automaton.matches(Array(input.unicodeScalars), steps: &steps)
        return (matched, steps)
    }

    @Test(arguments: [
        ("*a*a*a*a*a*a*b", "a"),
        ("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", "a"),
        ("$(v)$(v)$(v)$(v)$(v)$(v)$(v)b", "a"),
        ("*?*?*?*?*?*?*?*?c", "ab"),
    ])
    func doublingInputRoughlyDoublesWork(_ pattern: String, _ unit: String) {
        let short = Self.steps(pattern, String(repeating: unit, count: 10_000))
        let long = Self.steps(pattern, String(repeating: unit, count: 20_000))
        #expect(!short.matched && !long.matched)
        let ratio = Double(long.steps) / Double(short.steps)
        #expect(ratio > 1.8 && ratio < 2.2, "ratio \(ratio)")
    }

    @Test func hundredThousandCharactersStayLinear() {
        let pattern = "*a*a*a*a*a*a*b"
        let input = String(repeating: "a", count: 100_000)
        let result = Self.steps(pattern, input)
        #expect(!result.matched)
        // 14 tokens → 15 states: work is bounded by states × (input + 1) × 2.
        #expect(result.steps <= 15 * 100_001 * 2)
        #expect(Self.steps(pattern, input + "b").matched)
    }

    /// One rule for each program that walks the input: a glob of literals
    /// and stars, whose last run is searched across the whole path, and an
    /// automaton (`?` rules the glob out).
    @Test func wholeEvaluationCountsSteps() throws {
        let file = try MatcherFixture.file(components: ##"[{"/": "*a*a*a*a*a*a*b*"}, {"/": "*a?a*a*a*a*a*b"}]"##)
        let matcher = AASAMatcher(file: file)
        var shortSteps = 0
        var longSteps = 0
        _ = matcher.evaluate(
            try AASAURL("https://h/" + String(repeating: "a", count: 10_000)),
            appID: MatcherFixture.appID,
            steps: &shortSteps
        )
        _ = matcher.evaluate(
            try AASAURL("https://h/" + String(repeating: "a", count: 20_000)),
            appID: MatcherFixture.appID,
            steps: &longSteps
        )
        let ratio = Double(longSteps) / Double(shortSteps)
        #expect(ratio > 1.8 && ratio < 2.2, "ratio \(ratio)")
    }

    /// A glob's middle run is searched naively: at most its length per
    /// input position, linear in the input like the automaton.
    @Test func globSearchIsLinearInTheInput() throws {
        let file = try MatcherFixture.file(components: ##"[{"/": "*aaaaaaaab*"}]"##)
        let matcher = AASAMatcher(file: file)
        var shortSteps = 0
        var longSteps = 0
        let short = matcher.evaluate(
            try AASAURL("https://h/" + String(repeating: "a", count: 10_000)),
            appID: MatcherFixture.appID,
            steps: &shortSteps
        )
        _ = matcher.evaluate(
            try AASAURL("https://h/" + String(repeating: "a", count: 20_000)),
            appID: MatcherFixture.appID,
            steps: &longSteps
        )
        #expect(short.decision == .none)
        let ratio = Double(longSteps) / Double(shortSteps)
        #expect(ratio > 1.8 && ratio < 2.2, "ratio \(ratio)")
        #expect(longSteps <= 9 * 20_002)
    }

    @Test func regionTrieKeepsFewStatesActive() {
        let region = Self.steps("/$(region)/$(region)/$(region)/x", "/GB/DE/FR/y")
        #expect(!region.matched)
        #expect(region.steps < 400)
    }
}
