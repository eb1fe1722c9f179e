/// One rule of an app entry: a `components` object or a legacy `paths`
/// string, as written and as the system applies it after the defaults merge.
public struct Rule: Sendable {
    /// How the rule is written.
    public enum Form: String, Sendable {
        case component
        case legacyPath
    }

    public var form: Form
    /// The position in its `components` or `paths` array.
    public var index: Int
    /// Where the rule is written, e.g. `applinks.details[0].components[3]`.
    public var path: JSONPath
    /// The rule as written.
    public var written: JSONValue
    /// The keys in force: `applinks.defaults` ← entry `defaults` ← the rule's
    /// own keys (docs/SEMANTICS.md §4).
    public var effective: JSONObject
    /// The keys of ``effective`` that came from a `defaults` object, in order.
    public var inheritedKeys: [String]
    /// ``effective`` as the system interprets it.
    public var keys: ComponentKeys

    /// A `components` entry. One that is not an object matches every URL,
    /// with no defaults applied.
    public init(component: JSONValue, path: JSONPath, index: Int, defaults: JSONObject) {
        self.form = .component
        self.index = index
        self.path = path
        self.written = component
        guard let own = component.objectValue else {
            self.effective = JSONObject()
            self.inheritedKeys = []
            self.keys = ComponentKeys(JSONObject())
            return
        }
        var effective = defaults
        for (key, value) in own.members {
            effective[key] = value
        }
        self.effective = effective
        self.inheritedKeys = defaults.keys.filter { own[$0] == nil }
        self.keys = ComponentKeys(effective)
    }

    /// A legacy `paths` entry. `NOT ` (any case) makes it an exclusion with
    /// `caseSensitive` forced on; a non-string entry matches every URL.
    ///
    /// The entry receives the merged defaults except `?` and `#`: a legacy
    /// rule compares only the path (§6.4), so we read §4's "legacy paths get
    /// the defaults" as the flags and `exclude`.
    public init(legacyPath: JSONValue, path: JSONPath, index: Int, defaults: JSONObject) {
        self.form = .legacyPath
        self.index = index
        self.path = path
        self.written = legacyPath
        guard let text = legacyPath.stringValue else {
            self.effective = JSONObject()
            self.inheritedKeys = []
            self.keys = ComponentKeys(JSONObject())
            return
        }
        var effective = defaults
        effective["?"] = nil
        effective["#"] = nil
        effective["/"] = nil
        var own: Set<String> = ["/"]
        if text.lowercased().hasPrefix("not ") {
            effective["/"] = .string(String(text.dropFirst(4)))
            effective["exclude"] = .bool(true)
            effective["caseSensitive"] = .bool(true)
            own.formUnion(["exclude", "caseSensitive"])
        } else {
            effective["/"] = .string(text)
        }
        self.effective = effective
        self.inheritedKeys = effective.keys.filter { !own.contains($0) }
        self.keys = ComponentKeys(effective)
    }

    /// Whether the rule blocks the URLs it matches.
    public var isExclusion: Bool { keys.exclude }
}
