/// A dynamic-rule pattern: `*` matches any run of characters (possibly
/// none), `?` exactly one, every other character itself, case-sensitively.
/// `?*` is therefore "one or more". There are no variables and no escapes.
///
/// A "character" is a UTF-16 code unit, as in Android's `PatternMatcher`
/// (Java strings): `?` matches half of an emoji's surrogate pair. Units are
/// mapped one to one onto scalars so the Apple matcher's linear-time
/// automaton runs them unchanged: surrogates go to a private-use range that
/// no unit of a UTF-16 string can otherwise reach.
struct AndroidGlob: Sendable {
    let pattern: String
    let tokens: [PatternToken]
    private let automaton: PatternAutomaton?

    init(_ pattern: String) {
        self.pattern = pattern
        self.tokens = Self.units(pattern).map { unit in
            switch unit {
            case "*": .star
            case "?": .any
            default: .literal(unit)
            }
        }
        // `*` alone, the common catch-all, needs no automaton.
        automaton = tokens.allSatisfy { $0 == .star } ? nil : PatternAutomaton(tokens: tokens, caseInsensitive: false)
    }

    /// Whether the whole of `text` matches.
    func matches(_ text: String) -> Bool {
        guard let automaton else { return true }
        var steps = 0
        return automaton.matches(Self.units(text), steps: &steps)
    }

    /// Whether this pattern matches every string `other` matches (sound, not
    /// complete: `false` means "not provable"). The proof fills a table of
    /// one cell per pair of tokens, so two huge patterns are not compared.
    func covers(_ other: AndroidGlob) -> Bool {
        guard tokens.count.multipliedReportingOverflow(by: other.tokens.count).partialValue <= Self.coverageCells,
            tokens.count < Self.coverageCells, other.tokens.count < Self.coverageCells
        else { return false }
        return GlobSubsumption(coveringFolds: false, coveredFolds: false).covers(tokens, other.tokens)
    }

    /// Table cells one coverage proof may use: far beyond hand-written
    /// patterns, and a bounded cost on reload for generated ones.
    static let coverageCells = 1_000_000

    /// Whether a `*` is followed by more pattern: the shape whose result
    /// depends on how the matcher backtracks (see docs/ANDROID.md).
    var hasInnerStar: Bool {
        guard let firstStar = tokens.firstIndex(of: .star) else { return false }
        return tokens[firstStar...].contains { $0 != .star }
    }

    /// The UTF-16 code units of `text`, as scalars.
    static func units(_ text: String) -> [Unicode.Scalar] {
        text.utf16.map { unit in
            let value = UInt32(unit)
            let mapped = (0xD800...0xDFFF).contains(value) ? surrogateBase + (value - 0xD800) : value
            // Every mapped value is a valid scalar: BMP non-surrogates, or the
            // private-use plane 16.
            return Unicode.Scalar(mapped) ?? "\u{FFFD}"
        }
    }

    /// Plane 16, private use: only a surrogate pair (mapped unit by unit) can
    /// spell it in UTF-16, so a mapped lone surrogate never meets it.
    private static let surrogateBase: UInt32 = 0x10_0000
}
