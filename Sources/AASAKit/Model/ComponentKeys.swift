/// The keys of a rule as the system interprets them (docs/SEMANTICS.md §2):
/// wrong types are not errors, they behave as absent or turn a flag off.
public struct ComponentKeys: Sendable, Hashable {
    /// `/`, when it is a string.
    public var path: String?
    /// `?`, when it is a string or an object.
    public var query: QueryPattern?
    /// `#`, when it is a string.
    public var fragment: String?
    /// `exclude`, default `false`.
    public var exclude: Bool
    /// `caseSensitive`, default `true`.
    public var caseSensitive: Bool
    /// `percentEncoded`, default `true`.
    public var percentEncoded: Bool

    /// Keys with the system's defaults for everything not given.
    public init(
        path: String? = nil,
        query: QueryPattern? = nil,
        fragment: String? = nil,
        exclude: Bool = false,
        caseSensitive: Bool = true,
        percentEncoded: Bool = true
    ) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
    }

    /// Interprets an effective (defaults-merged) rule object.
    public init(_ object: JSONObject) {
        self.init { object[$0] }
    }

    /// Interprets the keys `value(for:)` finds: a rule's effective keys
    /// read without merging its defaults into a new object first.
    init(_ value: (String) -> JSONValue?) {
        self.init(
            path: value("/")?.stringValue,
            query: value("?").flatMap(QueryPattern.init(json:)),
            fragment: value("#")?.stringValue,
            exclude: Self.flag(value("exclude"), default: false),
            caseSensitive: Self.flag(value("caseSensitive"), default: true),
            percentEncoded: Self.flag(value("percentEncoded"), default: true)
        )
    }

    /// How the system reads a boolean key: absent → the default; a boolean as
    /// is; a number → non-zero; the strings `"true"`/`"false"` (any case; the
    /// case rule is our pick) → that value; anything else → `false`.
    public static func flag(_ value: JSONValue?, default defaultValue: Bool) -> Bool {
        switch value {
        case nil: defaultValue
        case .bool(let flag)?: flag
        case .number(let number)?: number != 0
        case .string(let text)? where text.lowercased() == "true": true
        default: false
        }
    }
}

/// The `?` key of a rule.
public enum QueryPattern: Sendable, Hashable {
    /// Matched against the whole query string.
    case string(String)
    /// Every listed item must match, in every occurrence; names are exact.
    case items([QueryItemPattern])
    /// A dictionary with a non-string value: the system ignores it, so it
    /// matches any query.
    case ignoredDictionary

    /// `nil` when the value is neither a string nor an object (the key then
    /// behaves as absent).
    public init?(json: JSONValue) {
        switch json {
        case .string(let pattern):
            self = .string(pattern)
        case .object(let object):
            var items: [QueryItemPattern] = []
            for (name, value) in object.members {
                guard let pattern = value.stringValue else {
                    self = .ignoredDictionary
                    return
                }
                items.append(QueryItemPattern(name: name, pattern: pattern))
            }
            self = .items(items)
        default:
            return nil
        }
    }
}

/// One `name: pattern` pair of a dictionary `?`.
public struct QueryItemPattern: Sendable, Hashable {
    public var name: String
    public var pattern: String

    /// A `name: pattern` pair.
    public init(name: String, pattern: String) {
        self.name = name
        self.pattern = pattern
    }
}
