/// One element of a parsed AASA pattern (docs/SEMANTICS.md §3, §5).
enum PatternToken: Hashable, Sendable {
    /// A scalar compared as is (or folded under `caseSensitive: false`).
    case literal(Unicode.Scalar)
    /// `?`: exactly one scalar.
    case any
    /// `*`: zero or more scalars, crossing `/`.
    case star
    /// `$(digit)` and the other one-character built-ins.
    case builtin(BuiltinClass)
    /// A user variable, `$(region)` or `$(lang)`: one of the alternatives.
    case variable(name: String, alternatives: [[PatternToken]])
}

/// The one-character built-in variables.
enum BuiltinClass: String, CaseIterable, Sendable {
    case alpha, upper, lower, alnum, digit, xdigit

    /// Whether `scalar` is in the class; under case-insensitivity the class
    /// accepts both cases (`$(upper)` accepts `q`).
    func contains(_ scalar: Unicode.Scalar, caseInsensitive: Bool) -> Bool {
        let scalar = caseInsensitive ? CaseFolding.fold(scalar) : scalar
        let isUpper = ("A"..."Z").contains(scalar)
        let isLower = ("a"..."z").contains(scalar)
        let isDigit = ("0"..."9").contains(scalar)
        switch self {
        case .alpha: return isUpper || isLower
        case .upper: return isUpper || (caseInsensitive && isLower)
        case .lower: return isLower
        case .alnum: return isUpper || isLower || isDigit
        case .digit: return isDigit
        case .xdigit: return isDigit || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
        }
    }

}

/// Why a pattern can never match.
enum PatternFailure: Hashable, Sendable, CustomStringConvertible {
    case undefinedVariable(String)
    case unterminatedVariable
    case tooComplex(depth: Int)

    var description: String {
        switch self {
        case .undefinedVariable(let name): "undefined substitution variable $(\(name))"
        case .unterminatedVariable: "\"$(\" without \")\""
        case .tooComplex(let depth):
            "pattern too complex (recursion depth \(depth), the system gives up past \(ParsedPattern.maximumDepth))"
        }
    }
}
