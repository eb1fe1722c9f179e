/// The start of a rule's `/` pattern as written, cut where the written form
/// could differ from the parsed, normalised pattern's literal start: at a
/// wildcard, a variable, an escape, a non-ASCII scalar or a doubled `/`
/// (which normalisation collapses). ASCII letters are folded.
///
/// What it is for: a rule can only cover a later one when its literal path
/// start is a prefix of the later one's (``UnreachableRuleLint``). Each
/// written start is a prefix of the literal start, so two rules whose
/// written starts are not prefixes of one another can never be in that
/// relation, and neither needs its patterns parsed. Rules without a `/`, or
/// whose `/` does not start with `/`, have the empty start: comparable with
/// every rule.
struct RawStart {
    /// At most this many bytes of the written start are kept. A cut start is
    /// still a prefix of the literal start, so the filter stays exact where
    /// it rules a pair out; it only keeps pairs whose paths agree on their
    /// first 32 bytes, which the coverage check then decides.
    static let capacity = 32

    /// The kept bytes and `0xFF` at each of them: a start needs no
    /// allocation, and two compare in four masked words (the check compares
    /// every pair of an entry's rules). Both are written byte by byte in the
    /// same layout, so the comparison does not depend on byte order.
    private var words = SIMD4<UInt64>()
    private var mask = SIMD4<UInt64>()

    /// The written start of `path`, a rule's `/` key (``ComponentKeys/path``).
    /// Taking the key, not the ``Rule``, spares a copy of the whole rule.
    init(path: String?) {
        guard let path, path.utf8.first == UInt8(ascii: "/") else { return }
        var words = SIMD4<UInt64>()
        var mask = SIMD4<UInt64>()
        withUnsafeMutableBytes(of: &words) { words in
            withUnsafeMutableBytes(of: &mask) { mask in
                var count = 0
                var previous: UInt8 = 0
                for byte in path.utf8 {
                    guard count < Self.capacity, !Self.stops(byte), byte != UInt8(ascii: "/") || previous != byte
                    else { break }
                    words[count] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                    mask[count] = 0xFF
                    previous = byte
                    count += 1
                }
            }
        }
        self.words = words
        self.mask = mask
    }

    /// Where the written form can stop matching the parsed pattern: `*`,
    /// `?`, `$`, `%`, `\` and every non-ASCII byte.
    private static func stops(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "\\"): true
        default: byte >= 0x80
        }
    }

    /// Whether one start is a prefix of the other: they agree on every byte
    /// both hold.
    func isComparable(with other: RawStart) -> Bool {
        (words ^ other.words) & (mask & other.mask) == SIMD4()
    }
}

/// A rule's ``RuleCoverage/Shape``, built when first asked for.
struct LazyShapes {
    private let rules: [Rule]
    private let coverage: RuleCoverage
    private var built: [RuleCoverage.Shape?]

    init(rules: [Rule], coverage: RuleCoverage) {
        self.rules = rules
        self.coverage = coverage
        built = Array(repeating: nil, count: rules.count)
    }

    subscript(index: Int) -> RuleCoverage.Shape {
        mutating get {
            if let shape = built[index] { return shape }
            let shape = coverage.shape(of: rules[index])
            built[index] = shape
            return shape
        }
    }
}
