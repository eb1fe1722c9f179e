/// The rules of one `details` entry indexed by the literal start of their
/// `/` pattern, so that an evaluation walks only the rules that can match
/// the URL's path instead of every rule in order.
///
/// Why the candidates give the same result as walking every rule: a rule
/// left out is one whose path pattern begins with literal scalars the path
/// does not begin with (compared folded). Such a rule compares its path
/// first, so walking it would have returned `notMatched`, which adds nothing
/// to a result, no note either. The candidates are walked in rule order,
/// so the first match and the notes come out as before.
///
/// Which rules are always candidates (keyed by the empty prefix): a rule
/// with no `/` or a `*` one (it compares no path), a pattern that starts
/// with `*` (after §3.1 normalisation every other path pattern starts with
/// `/`), and a rule that can never match (it adds a note for every URL).
/// A `/` that starts with `?`, a variable or a built-in is keyed by `/`,
/// which every normalised path starts with.
///
/// `percentEncoded: false` rules compare the decoded path, so they have
/// their own trie walked along the decoded path. When the URL's path cannot
/// be decoded, all of them are candidates: each adds the "invalid
/// percent-escape" note.
///
/// A class: the matcher reads it for every URL, and a copy of the struct
/// retained and released each of its tries' five tables.
final class RuleIndex: Sendable {
    private let encoded: PrefixTrie
    private let decoded: PrefixTrie
    /// Every rule of `decoded`, ascending.
    private let decodedRules: [Int32]

    init(rules: [CompiledRule]) {
        var encodedEntries: [(key: [Unicode.Scalar], value: Int)] = []
        var decodedEntries: [(key: [Unicode.Scalar], value: Int)] = []
        for (position, rule) in rules.enumerated() {
            guard rule.failure == nil, let path = rule.path, !path.isMatchAll else {
                encodedEntries.append(([], position))
                continue
            }
            let key = Self.literalPrefix(path.parsed.tokens)
            if rule.rule.keys.percentEncoded {
                encodedEntries.append((key, position))
            } else {
                decodedEntries.append((key, position))
            }
        }
        encoded = PrefixTrie(encodedEntries)
        decoded = PrefixTrie(decodedEntries)
        decodedRules = decoded.allValues()
    }

    /// The positions of the rules that can match `input`, ascending, in
    /// `candidates` (which is emptied first).
    func candidates(for input: inout MatchInput, into candidates: inout [Int32]) {
        candidates.removeAll(keepingCapacity: true)
        input.withPath(decoded: false) { encoded.appendValues(keyedByPrefixesOf: $0, to: &candidates) }
        if !decoded.isEmpty {
            let walked: Void? = input.withPath(decoded: true) {
                decoded.appendValues(keyedByPrefixesOf: $0, to: &candidates)
            }
            if walked == nil { candidates += decodedRules }
        }
        // Each node's list is ascending; their concatenation not always.
        if !Self.isAscending(candidates) { candidates.sort() }
    }

    private static func isAscending(_ values: [Int32]) -> Bool {
        var previous = Int32.min
        for value in values {
            guard value > previous else { return false }
            previous = value
        }
        return true
    }

    /// The literal scalars a path pattern starts with.
    static func literalPrefix(_ tokens: [PatternToken]) -> [Unicode.Scalar] {
        var prefix: [Unicode.Scalar] = []
        for token in tokens {
            guard case .literal(let scalar) = token else { break }
            prefix.append(scalar)
        }
        return prefix
    }
}
