/// "Did you mean" for the tools built on AASAKit: the same rule the lints
/// and the schema messages use, so a command line typo is caught as a key
/// typo is.
public enum Suggestion {
    /// The candidate closest to `word` when it is a plausible typo of it:
    /// same letters in another case, or at most two edits away.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        closestMatch(to: word, in: candidates)
    }
}
