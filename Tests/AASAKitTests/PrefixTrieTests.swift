import Testing

@testable import AASAKit

/// ``PrefixTrie``'s walk (a node's only edge read from the node, branching
/// nodes looked up in their ASCII table or searched, chains compressed into
/// runs) against the straightforward answer: every key, folded,
/// that is a prefix of the text, folded; shortest first, one key's values
/// in insertion order.
@Suite struct PrefixTrieTests {
    /// Few letters and short keys, so that keys share chains and branch,
    /// some repeat, and one is often a prefix of another.
    private static let alphabet: [Unicode.Scalar] = ["/", "a", "A", "b", "B", "é", "É", "*"]

    @Test(arguments: 0..<4)
    func walkAgreesWithEveryKeyCompared(seed: UInt64) {
        var random = TestRandom(seed: 0x7121_0000 + seed)
        for round in 0..<200 {
            // Longer keys every other round: long runs, left part-way.
            let keyLength = round.isMultiple(of: 2) ? 6 : 12
            let entries = (0..<random.below(12)).map { value in
                (key: Self.text(&random, maximum: keyLength), value: value)
            }
            let trie = PrefixTrie(entries)
            for _ in 0..<20 {
                var text = Self.text(&random, maximum: keyLength + 3)
                // Often a key's text, changed at one place or extended:
                // a walk down a whole run, or off it near its end.
                if !entries.isEmpty, random.chance(50) {
                    text = random.pick(entries).key + text.prefix(random.below(4))
                    if !text.isEmpty, random.chance(30) { text[random.below(text.count)] = random.pick(Self.alphabet) }
                }
                var walked: [Int32] = []
                trie.appendValues(keyedByPrefixesOf: text, to: &walked)
                #expect(walked == Self.expected(entries, text), "\(entries) \(text)")
                if text.allSatisfy(\.isASCII) {
                    var walkedBytes: [Int32] = []
                    let bytes = text.map { UInt8($0.value) }
                    bytes.withUnsafeBufferPointer { trie.appendValues(keyedByPrefixesOf: $0, to: &walkedBytes) }
                    #expect(walkedBytes == walked, "\(entries) \(text)")
                }
            }
        }
    }

    private static func expected(
        _ entries: [(key: [Unicode.Scalar], value: Int)],
        _ text: [Unicode.Scalar]
    ) -> [Int32] {
        let folded = text.map(CaseFolding.fold)
        let prefixes = entries.filter { entry in
            entry.key.count <= text.count && entry.key.map(CaseFolding.fold) == Array(folded.prefix(entry.key.count))
        }
        // Stable: one key's values stay in insertion order.
        return prefixes.enumerated()
            .sorted { ($0.element.key.count, $0.offset) < ($1.element.key.count, $1.offset) }
            .map { Int32($0.element.value) }
    }

    private static func text(_ random: inout TestRandom, maximum: Int) -> [Unicode.Scalar] {
        (0..<random.below(maximum + 1)).map { _ in random.pick(alphabet) }
    }
}
