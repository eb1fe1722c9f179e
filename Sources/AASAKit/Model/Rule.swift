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
    public var index: Int {
        // The path stays where the rule was read: setting one never moves
        // the other, as when each rule stored its own path.
        didSet {
            if location.isArray { location = Location(path: location.path.appending(oldValue), isArray: false) }
        }
    }
    /// Where the rule is written, e.g. `applinks.details[0].components[3]`.
    /// Built when asked from the array's path, which every rule of the
    /// entry shares: a path per rule was an allocation for every rule of
    /// every file loaded, and only findings read it.
    public var path: JSONPath {
        get { location.isArray ? location.path.appending(index) : location.path }
        set { location = Location(path: newValue, isArray: false) }
    }
    /// The rule's own path, or (`isArray`) the path of the array holding it.
    private var location: Location
    /// The rule as written.
    public var written: JSONValue
    /// ``effective`` as the system interprets it.
    public var keys: ComponentKeys
    /// The merged defaults the rule was read with (`applinks.defaults` ←
    /// entry `defaults`), shared by every rule of its entry. The merged
    /// object per rule is built only when asked for (``effective``): the
    /// origin reads every rule of every file it loads and needs only
    /// ``keys``.
    private var defaults: JSONObject

    /// The keys in force: `applinks.defaults` ← entry `defaults` ← the rule's
    /// own keys (docs/SEMANTICS.md §4).
    public var effective: JSONObject {
        switch form {
        case .component: Self.merging(written, over: defaults)
        case .legacyPath: Self.legacyEffective(written, defaults: defaults)
        }
    }

    /// The keys of ``effective`` that came from a `defaults` object, in order.
    public var inheritedKeys: [String] {
        switch form {
        case .component:
            guard let own = written.objectValue else { return [] }
            return defaults.keys.filter { own[$0] == nil }
        case .legacyPath:
            guard let text = written.stringValue else { return [] }
            let own: Set<String> = Self.isExclusion(text) ? ["/", "exclude", "caseSensitive"] : ["/"]
            return Self.legacyEffective(written, defaults: defaults).keys.filter { !own.contains($0) }
        }
    }

    /// A `components` entry. One that is not an object matches every URL,
    /// with no defaults applied.
    public init(component: JSONValue, path: JSONPath, index: Int, defaults: JSONObject) {
        self.init(
            component: component,
            location: Location(path: path, isArray: false),
            index: index,
            defaults: defaults
        )
    }

    /// The component at `index` of the `components` array at `array`.
    init(component: JSONValue, in array: JSONPath, index: Int, defaults: JSONObject) {
        self.init(
            component: component,
            location: Location(path: array, isArray: true),
            index: index,
            defaults: defaults
        )
    }

    private init(component: JSONValue, location: Location, index: Int, defaults: JSONObject) {
        self.form = .component
        self.index = index
        self.location = location
        self.written = component
        self.defaults = defaults
        guard let own = component.objectValue else {
            self.keys = ComponentKeys(JSONObject())
            return
        }
        // The rule's own key, else the inherited one: what the merged
        // object would hold, without building it.
        self.keys = ComponentKeys { key in own[key] ?? defaults[key] }
    }

    /// A legacy `paths` entry. `NOT ` (any case) makes it an exclusion with
    /// `caseSensitive` forced on; a non-string entry matches every URL.
    ///
    /// The entry receives the merged defaults except `?` and `#`: a legacy
    /// rule compares only the path (§6.4), so we read §4's "legacy paths get
    /// the defaults" as the flags and `exclude`.
    public init(legacyPath: JSONValue, path: JSONPath, index: Int, defaults: JSONObject) {
        self.init(
            legacyPath: legacyPath,
            location: Location(path: path, isArray: false),
            index: index,
            defaults: defaults
        )
    }

    /// The entry at `index` of the `paths` array at `array`.
    init(legacyPath: JSONValue, in array: JSONPath, index: Int, defaults: JSONObject) {
        self.init(
            legacyPath: legacyPath,
            location: Location(path: array, isArray: true),
            index: index,
            defaults: defaults
        )
    }

    private init(legacyPath: JSONValue, location: Location, index: Int, defaults: JSONObject) {
        self.form = .legacyPath
        self.index = index
        self.location = location
        self.written = legacyPath
        self.defaults = defaults
        self.keys = ComponentKeys(Self.legacyEffective(legacyPath, defaults: defaults))
    }

    /// The defaults with the component's own keys written over them; empty
    /// for a component that is not an object.
    private static func merging(_ component: JSONValue, over defaults: JSONObject) -> JSONObject {
        guard let own = component.objectValue else { return JSONObject() }
        var effective = defaults
        for (key, value) in own.members {
            effective[key] = value
        }
        return effective
    }

    /// The merged object of a legacy entry: the path as `/`, `exclude` and
    /// `caseSensitive` forced on for `NOT `, no `?` or `#`; empty for an
    /// entry that is not a string.
    private static func legacyEffective(_ entry: JSONValue, defaults: JSONObject) -> JSONObject {
        guard let text = entry.stringValue else { return JSONObject() }
        var effective = defaults
        effective["?"] = nil
        effective["#"] = nil
        effective["/"] = nil
        if isExclusion(text) {
            effective["/"] = .string(String(text.dropFirst(4)))
            effective["exclude"] = .bool(true)
            effective["caseSensitive"] = .bool(true)
        } else {
            effective["/"] = .string(text)
        }
        return effective
    }

    private static func isExclusion(_ text: String) -> Bool {
        text.lowercased().hasPrefix("not ")
    }

    /// Whether the rule blocks the URLs it matches.
    public var isExclusion: Bool { keys.exclude }

    private struct Location: Sendable {
        var path: JSONPath
        var isArray: Bool
    }
}
