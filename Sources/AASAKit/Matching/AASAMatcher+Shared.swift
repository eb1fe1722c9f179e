extension AASAMatcher {
    /// A matcher for each of `files`, in order: equal files (the same JSON
    /// value) share one compile, whose rules every copy reads without
    /// copying them, and the distinct files are compiled across the cores.
    /// Each accepts any host until ``serving(domain:)`` names one.
    public static func compile(_ files: [AASAFile]) -> [AASAMatcher] {
        compileCounting(files).matchers
    }

    /// ``compile(_:)`` with the number of compiles it ran.
    static func compileCounting(_ files: [AASAFile]) -> (matchers: [AASAMatcher], compiled: Int) {
        let (matchers, compiled) = DistinctBatch.map(files.map(\.json)) { AASAMatcher(file: files[$0]) }
        return (matchers, compiled)
    }

    /// This matcher for the file served for `domain` (see ``domain``),
    /// sharing the compiled rules: the host is checked per URL, it changes
    /// nothing compiled.
    public func serving(domain: String?) -> AASAMatcher {
        var copy = self
        copy.domain = domain?.lowercased()
        return copy
    }
}
