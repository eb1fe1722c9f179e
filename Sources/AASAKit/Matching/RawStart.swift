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
    private let bytes: [UInt8]

    init(_ rule: Rule) {
        guard let path = rule.keys.path, path.utf8.first == UInt8(ascii: "/") else {
            bytes = []
            return
        }
        var bytes: [UInt8] = []
        for byte in path.utf8 {
            if byte >= 0x80 || Self.stops.contains(byte) { break }
            if byte == UInt8(ascii: "/"), bytes.last == UInt8(ascii: "/") { break }
            bytes.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
        }
        self.bytes = bytes
    }

    private static let stops: Set<UInt8> = Set("*?$%\\".utf8)

    /// Whether one start is a prefix of the other.
    func isComparable(with other: RawStart) -> Bool {
        let length = min(bytes.count, other.bytes.count)
        return bytes[..<length] == other.bytes[..<length]
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
