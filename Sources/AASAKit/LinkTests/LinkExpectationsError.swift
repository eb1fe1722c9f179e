/// An expectations file that cannot be used: every problem found, each an
/// error ``Diagnostic`` with its code (`json.syntax`, `json.duplicate-key`,
/// `schema.additionalProperties`, `schema.minItems`, …,
/// `links.association-file`), JSON path and message.
public struct LinkExpectationsError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String?
    /// Never empty.
    public var problems: [Diagnostic]

    public init(file: String?, problems: [Diagnostic]) {
        self.file = file
        self.problems = problems.map { $0.inFile(file) }
    }

    /// One compiler-style line per problem.
    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}
