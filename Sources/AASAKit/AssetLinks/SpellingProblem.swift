/// Why a string breaks a spelling rule, and what was probably meant.
struct SpellingProblem: Equatable {
    var reason: String
    var suggestion: String?

    /// `reason; did you mean "x"?`
    var message: String {
        guard let suggestion else { return reason }
        return "\(reason); did you mean \(quoted(suggestion))?"
    }

    /// A character as messages name it: `"+"`, `a space`, `U+000A`.
    static func name(of scalar: Unicode.Scalar) -> String {
        switch scalar {
        case " ": return "a space"
        case "\t": return "a tab"
        case "\n", "\r": return "a line break"
        default:
            guard scalar.properties.isWhitespace || scalar.value < 0x20 else { return quoted(String(scalar)) }
            return "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
        }
    }
}

extension String {
    /// `"A"` padded with zeros to `"000A"`.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
