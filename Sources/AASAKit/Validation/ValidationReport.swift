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

/// Sort keys that put paths in the order they are written in a document.
///
/// One number per path component: an array index as is, an object key as
/// its position among the members (unknown keys last). Compared
/// lexicographically, a parent sorts before its children. Member positions
/// are indexed once per object, so a file with thousands of findings on one
/// large object sorts in linear time per finding, not quadratic.
struct DocumentOrderIndex {
    private let root: JSONValue?
    private var memberPositions: [JSONPath: [String: Int]] = [:]

    init(root: JSONValue?) {
        self.root = root
    }

    mutating func key(for path: JSONPath) -> [Int] {
        var current = root
        var key: [Int] = []
        key.reserveCapacity(path.components.count)
        for (depth, component) in path.components.enumerated() {
            switch component {
            case .index(let index):
                key.append(index)
                current = current?.arrayValue.flatMap { $0.indices.contains(index) ? $0[index] : nil }
            case .key(let name):
                key.append(position(of: name, in: current, at: JSONPath(Array(path.components[..<depth]))))
                current = current?[name]
            }
        }
        return key
    }

    private mutating func position(of name: String, in container: JSONValue?, at containerPath: JSONPath) -> Int {
        guard let object = container?.objectValue else { return Int.max }
        if let positions = memberPositions[containerPath] {
            return positions[name] ?? Int.max
        }
        var positions: [String: Int] = [:]
        for (offset, key) in object.keys.enumerated() {
            positions[key] = offset
        }
        memberPositions[containerPath] = positions
        return positions[name] ?? Int.max
    }
}
