/// One dynamic App Link rule: patterns for the path (`/`), the fragment
/// (`#`) and named query parameters (`?`), and whether a match blocks
/// (`exclude`). The first rule that matches a URL decides.
public struct DynamicRule: Sendable {
    /// Position in its list.
    public var index: Int
    /// Where it is written.
    public var path: JSONPath
    /// The rule as written.
    public var written: JSONValue
    /// The `/` pattern; `nil` when absent (any path).
    public var pathPattern: String?
    /// The `#` pattern; `nil` when absent (any fragment, or none).
    public var fragmentPattern: String?
    /// The `?` constraints in written order; parameters not named are free.
    public var queryPatterns: [QueryPattern]
    /// `exclude: true`: a URL this rule matches does not open the app.
    public var isExclusion: Bool

    /// One `?` entry: the parameter `name` must be present with a value
    /// matching `pattern`.
    public struct QueryPattern: Sendable, Hashable {
        public var name: String
        public var pattern: String
    }

    /// The keys a rule may have.
    static let keys = ["/", "#", "?", "exclude", "comments"]

    /// Reads a rule object; wrongly typed keys read as absent (the schema
    /// reports them, and Android then ignores the whole set).
    init(_ object: JSONObject, index: Int, path: JSONPath) {
        self.index = index
        self.path = path
        self.written = .object(object)
        self.pathPattern = object["/"]?.stringValue
        self.fragmentPattern = object["#"]?.stringValue
        self.queryPatterns = (object["?"]?.objectValue?.members ?? []).compactMap { member in
            member.value.stringValue.map { QueryPattern(name: member.key, pattern: $0) }
        }
        self.isExclusion = object["exclude"]?.boolValue ?? false
    }

    /// Whether the rule constrains nothing: no `/`, `#` or `?` entry.
    public var isUnconstrained: Bool {
        pathPattern == nil && fragmentPattern == nil && queryPatterns.isEmpty
    }

    /// Every pattern of the rule with where it is written, path first.
    var patterns: [(path: JSONPath, pattern: String)] {
        var list: [(JSONPath, String)] = []
        if let pathPattern { list.append((path.appending("/"), pathPattern)) }
        for query in queryPatterns { list.append((path.appending("?").appending(query.name), query.pattern)) }
        if let fragmentPattern { list.append((path.appending("#"), fragmentPattern)) }
        return list
    }

    /// How explanations name the rule, the way they name Apple's: the path
    /// pattern in quotes when that is all the rule says, else the rule as JSON
    /// without its `comments` (which Android ignores and which would drown
    /// the one line an explanation gets).
    public var display: String {
        guard var object = written.objectValue else { return written.serialized() }
        if let pathPattern, object.keys.allSatisfy({ $0 == "/" || $0 == "comments" }) {
            return quoted(pathPattern)
        }
        object["comments"] = nil
        return JSONValue.object(object).serialized()
    }
}
