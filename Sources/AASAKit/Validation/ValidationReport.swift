/// Everything a validator found in one file, and what it could read.
public struct ValidationReport: Sendable {
    /// The file the report is about, as the caller named it.
    public var file: String?
    /// Every finding, attributed to ``file``: errors first, then warnings,
    /// then info; within a severity in the order their paths appear in the
    /// file.
    public var diagnostics: [Diagnostic]
    /// The parsed file; `nil` when it is not JSON (or too large to parse).
    public var json: JSONValue?
    /// The lenient model; `nil` when the file is not JSON or its root is not
    /// an object (and always for assetlinks.json).
    public var document: AASAFile?

    /// Builds a report, attributing `diagnostics` to `file` and ordering them.
    ///
    /// - Parameter json: also the document the paths are ordered by: a path
    ///   sorts where its member is written.
    public init(file: String?, diagnostics: [Diagnostic], json: JSONValue? = nil, document: AASAFile? = nil) {
        self.file = file
        self.json = json
        self.document = document
        self.diagnostics = Self.ordered(diagnostics.map { $0.inFile(file) }, in: json)
    }

    /// Whether any finding is an error: the file must not be served.
    public var hasErrors: Bool { diagnostics.hasErrors }

    /// The number of error findings.
    public var errorCount: Int { count(.error) }
    /// The number of warning findings.
    public var warningCount: Int { count(.warning) }
    /// The number of info findings.
    public var infoCount: Int { count(.info) }

    private func count(_ severity: Severity) -> Int {
        diagnostics.lazy.filter { $0.severity == severity }.count
    }

    /// Severity (most severe first), then document order of the path, then
    /// the order the checks reported them (so a schema error precedes the
    /// lint explaining it).
    static func ordered(_ diagnostics: [Diagnostic], in json: JSONValue?) -> [Diagnostic] {
        var order = DocumentOrderIndex(root: json)
        let keyed = diagnostics.enumerated().map { offset, diagnostic in
            (diagnostic, order.key(for: diagnostic.path), offset)
        }
        return keyed.sorted { lhs, rhs in
            if lhs.0.severity != rhs.0.severity { return lhs.0.severity > rhs.0.severity }
            if lhs.1 != rhs.1 { return lhs.1.lexicographicallyPrecedes(rhs.1) }
            return lhs.2 < rhs.2
        }.map(\.0)
    }
}
