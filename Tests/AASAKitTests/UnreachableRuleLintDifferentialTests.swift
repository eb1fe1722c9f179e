import Testing

@testable import AASAKit

/// The unreachable-rule check compares each rule only with the earlier
/// rules its trie selects (entries of 32 rules and more); on random files
/// it must report exactly what comparing every earlier rule reports.
@Suite struct UnreachableRuleLintDifferentialTests {
    @Test(arguments: 0..<6)
    func indexedCheckAgreesWithEveryPair(seed: UInt64) throws {
        var random = TestRandom(seed: 0x5AAD_0000 + seed)
        for _ in 0..<15 {
            let text = RandomRules.file(&random, rules: UnreachableRuleLint.indexedRuleCount...90)
            let file = try MatcherFixture.parse(text)
            let found = UnreachableRuleLint.lint(file)
            let expected = Self.everyPair(file)
            #expect(found.map { "\($0.code) \($0.path)" } == expected.map(\.finding), "\(text)")
            for (diagnostic, pair) in zip(found, expected) {
                #expect(diagnostic.message.contains(" at \(pair.earlier) "), "\(text)")
            }
        }
    }

    /// Below the trie's size, written path starts rule pairs out before
    /// any pattern is parsed; that too must report what every pair does.
    @Test(arguments: 0..<6)
    func writtenStartsAgreeWithEveryPair(seed: UInt64) throws {
        var random = TestRandom(seed: 0x5AAD_1000 + seed)
        var findings = 0
        defer { #expect(findings > 0, "the random files must give the check something to find") }
        for _ in 0..<40 {
            let text = RandomRules.file(&random, rules: 2...(UnreachableRuleLint.indexedRuleCount - 1))
            let file = try MatcherFixture.parse(text)
            let found = UnreachableRuleLint.lint(file)
            let expected = Self.everyPair(file)
            findings += expected.count
            #expect(found.map { "\($0.code) \($0.path)" } == expected.map(\.finding), "\(text)")
            for (diagnostic, pair) in zip(found, expected) {
                #expect(diagnostic.message.contains(" at \(pair.earlier) "), "\(text)")
            }
        }
    }

    /// The first version of the check: every rule against every earlier one.
    static func everyPair(_ file: AASAFile) -> [(finding: String, earlier: JSONPath)] {
        let coverage = RuleCoverage(file: file)
        var claimed = Set<String>()
        var found: [(finding: String, earlier: JSONPath)] = []
        for detail in file.appLinks?.details ?? [] {
            guard !detail.appIDs.filter({ claimed.insert($0).inserted }).isEmpty else { continue }
            for (index, later) in detail.rules.enumerated() {
                guard let earlier = detail.rules[..<index].first(where: { coverage.covers($0, later) }) else {
                    continue
                }
                let code =
                    !earlier.isExclusion && later.isExclusion ? "lint.unreachable-exclude" : "lint.unreachable-rule"
                found.append(("\(code) \(later.path)", earlier.path))
            }
        }
        return found
    }
}

/// The written starts keep at most ``RawStart/capacity`` bytes; rules that
/// agree beyond that, and differ later, must still be decided like every
/// pair decides them.
@Suite struct UnreachableRuleLintLongPathTests {
    /// Longer than ``RawStart/capacity``, with capitals that fold.
    static let longStart = "/Shop/Catalogue/Seasonal-Collections/2026"

    @Test(arguments: 0..<4)
    func longSharedStartsAgreeWithEveryPair(seed: UInt64) throws {
        #expect(Self.longStart.utf8.count > RawStart.capacity)
        var random = TestRandom(seed: 0x5AAD_2000 + seed)
        var findings = 0
        defer { #expect(findings > 0, "the random files must give the check something to find") }
        for _ in 0..<40 {
            let generated = RandomRules.file(&random, rules: 2...(UnreachableRuleLint.indexedRuleCount - 1))
            let text = generated.replacing(#""/": ""#, with: #""/": "\#(Self.longStart)"#)
            let file = try MatcherFixture.parse(text)
            let expected = UnreachableRuleLintDifferentialTests.everyPair(file)
            findings += expected.count
            #expect(
                UnreachableRuleLint.lint(file).map { "\($0.code) \($0.path)" } == expected.map(\.finding),
                "\(text)"
            )
        }
    }

    @Test func startsBeyondTheCapacityAreComparedByCoverage() throws {
        let findings = try UnreachableRuleLintTests.lint(
            """
            [{"/": "\(Self.longStart)/a/*"}, {"/": "\(Self.longStart)/b/c", "exclude": true},
             {"/": "\(Self.longStart)/a/c", "exclude": true}]
            """
        )
        #expect(
            findings.map { "\($0.code) \($0.path)" } == ["lint.unreachable-exclude applinks.details[0].components[2]"]
        )
    }
}
