/// Android application IDs (`package_name`): two or more dot-separated parts,
/// each a letter followed by letters, digits or `_`.
public enum AndroidPackageName {
    /// Whether Google accepts `name` as a package name.
    public static func isValid(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy(isPart)
    }

    /// Why `name` is not a package name; surrounding whitespace is the only
    /// thing with an obvious fix.
    static func problem(with name: String) -> SpellingProblem {
        let trimmed = name.trimmingWhitespace
        let suggestion = trimmed != name && isValid(trimmed) ? trimmed : nil
        return SpellingProblem(reason: reason(name), suggestion: suggestion)
    }

    private static func reason(_ name: String) -> String {
        if name.isEmpty { return "the package name is empty" }
        if let space = name.unicodeScalars.first(where: \.properties.isWhitespace) {
            return "the package name contains whitespace (\(SpellingProblem.name(of: space)))"
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 1 { return "a package name has at least two dot-separated parts, e.g. \"com.example.app\"" }
        if parts.contains(where: \.isEmpty) { return "it has an empty part (a leading, trailing or double \".\")" }
        if let part = parts.first(where: { $0.unicodeScalars.first.map(isLetter) != true }) {
            return "the part \(quoted(String(part))) does not start with a letter"
        }
        let bad = name.unicodeScalars.first { !isPartScalar($0) && $0 != "." }.map(SpellingProblem.name(of:)) ?? "?"
        return "a package name may hold only letters, digits, \"_\" and \".\", not \(bad)"
    }

    private static func isPart(_ part: Substring) -> Bool {
        guard let first = part.unicodeScalars.first, isLetter(first) else { return false }
        return part.unicodeScalars.allSatisfy(isPartScalar)
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isPartScalar(_ scalar: Unicode.Scalar) -> Bool {
        isLetter(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
    }
}

extension String {
    /// Without leading and trailing whitespace (Foundation-free).
    var trimmingWhitespace: String {
        let scalars = unicodeScalars.drop { $0.properties.isWhitespace }.reversed()
            .drop { $0.properties.isWhitespace }.reversed()
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
