/// What every lint sees: the raw JSON (so findings carry the path as
/// written, even where the lenient model dropped a value), the byte count, and
/// every pattern string already collected with the flags that apply to it.
///
/// The patterns are gathered once here because half the lints need them and
/// each needs the same defaults inheritance (§4): a component's effective
/// `percentEncoded` may come from `details[].defaults` or `applinks.defaults`.
struct LintContext {
    var root: JSONObject
    var byteCount: Int
    /// The `applinks` object, when there is one.
    var applinks: JSONObject?
    /// Every `details` item with its path, in file order (array form or the
    /// legacy dictionary form).
    var detailItems: [(path: JSONPath, item: JSONObject)]
    /// Every component, defaults or legacy-path pattern.
    var patterns: [PatternSite]
    /// `applinks.substitutionVariables`, as written.
    var userVariables: JSONObject

    init(root: JSONObject, byteCount: Int) {
        self.root = root
        self.byteCount = byteCount
        let applinks = root["applinks"]?.objectValue
        self.applinks = applinks
        self.userVariables = applinks?["substitutionVariables"]?.objectValue ?? JSONObject()
        self.detailItems = Self.collectDetailItems(applinks)
        self.patterns = Self.collectPatterns(applinks: applinks, items: detailItems)
    }

    static let applinksPath = JSONPath([.key("applinks")])

    private static func collectDetailItems(_ applinks: JSONObject?) -> [(path: JSONPath, item: JSONObject)] {
        let detailsPath = applinksPath.appending("details")
        switch applinks?["details"] {
        case .array(let elements):
            return elements.enumerated().compactMap { offset, element in
                element.objectValue.map { (detailsPath.appending(offset), $0) }
            }
        case .object(let legacy):
            return legacy.members.compactMap { member in
                member.value.objectValue.map { (detailsPath.appending(member.key), $0) }
            }
        default:
            return []
        }
    }

    private static func collectPatterns(
        applinks: JSONObject?,
        items: [(path: JSONPath, item: JSONObject)]
    ) -> [PatternSite] {
        var sites: [PatternSite] = []
        let fileDefaults = applinks?["defaults"]?.objectValue
        if let fileDefaults {
            sites += patterns(in: fileDefaults, at: applinksPath.appending("defaults"), chain: [fileDefaults])
        }
        for (itemPath, item) in items {
            let itemDefaults = item["defaults"]?.objectValue
            let inherited = [itemDefaults, fileDefaults].compactMap { $0 }
            if let itemDefaults {
                sites += patterns(in: itemDefaults, at: itemPath.appending("defaults"), chain: inherited)
            }
            if case .array(let components) = item["components"] {
                for (offset, component) in components.enumerated() {
                    guard let object = component.objectValue else { continue }
                    let path = itemPath.appending("components").appending(offset)
                    sites += patterns(in: object, at: path, chain: [object] + inherited)
                }
            }
            if case .array(let paths) = item["paths"] {
                for (offset, entry) in paths.enumerated() {
                    guard let text = entry.stringValue else { continue }
                    let flags = EffectiveFlags(chain: inherited)
                    sites.append(
                        PatternSite(
                            path: itemPath.appending("paths").appending(offset),
                            pattern: LegacyPath.strippingExclusionPrefix(text),
                            kind: .legacyPath,
                            flags: flags
                        )
                    )
                }
            }
        }
        return sites
    }

    /// The `/`, `?` and `#` patterns of one component or defaults object.
    private static func patterns(in object: JSONObject, at path: JSONPath, chain: [JSONObject]) -> [PatternSite] {
        let flags = EffectiveFlags(chain: chain)
        var sites: [PatternSite] = []
        // By key, in written order; a value is looked up and a path built
        // only for the three pattern keys (most members are `exclude`,
        // `comment` and flags, and this runs for every component on load).
        for key in object.keys where key == "/" || key == "#" || key == "?" {
            let memberPath = path.appending(key)
            switch (key, object[key]) {
            case ("/", .string(let pattern)?):
                sites.append(PatternSite(path: memberPath, pattern: pattern, kind: .path, flags: flags))
            case ("#", .string(let pattern)?):
                sites.append(PatternSite(path: memberPath, pattern: pattern, kind: .fragment, flags: flags))
            case ("?", .string(let pattern)?):
                sites.append(PatternSite(path: memberPath, pattern: pattern, kind: .query, flags: flags))
            case ("?", .object(let items)?):
                for name in items.keys {
                    guard let pattern = items[name]?.stringValue else { continue }
                    sites.append(
                        PatternSite(
                            path: memberPath.appending(name),
                            pattern: pattern,
                            kind: .queryItem(name: name),
                            flags: flags
                        )
                    )
                }
            default:
                continue
            }
        }
        return sites
    }
}

/// One pattern string and where it applies.
struct PatternSite {
    enum Kind: Equatable {
        case path
        case query
        case queryItem(name: String)
        case fragment
        /// A legacy `paths` entry, with any `NOT ` prefix removed.
        case legacyPath

        /// Substitution variables are expanded in component patterns only
        /// (§5); legacy `paths` predate them.
        var expandsVariables: Bool { self != .legacyPath }
    }

    var path: JSONPath
    var pattern: String
    var kind: Kind
    var flags: EffectiveFlags
}

/// The `caseSensitive`/`percentEncoded` values a rule ends up with after the
/// defaults merge (§4) and the system's coercion of non-boolean values (§2,
/// as ``ComponentKeys/flag(_:default:)`` reads them).
struct EffectiveFlags: Equatable {
    var caseSensitive: Bool
    var percentEncoded: Bool

    /// `chain` runs from the most specific object (the component) to the
    /// least (`applinks.defaults`); the first one holding a key decides.
    init(chain: [JSONObject]) {
        func resolve(_ key: String, default defaultValue: Bool) -> Bool {
            for object in chain {
                if let value = object[key] { return ComponentKeys.flag(value, default: defaultValue) }
            }
            return defaultValue
        }
        caseSensitive = resolve("caseSensitive", default: true)
        percentEncoded = resolve("percentEncoded", default: true)
    }
}

/// Legacy `paths` spelling rules (§6.4).
enum LegacyPath {
    /// `NOT ` (any case) marks an exclusion; the pattern is what follows.
    static func strippingExclusionPrefix(_ entry: String) -> String {
        entry.lowercased().hasPrefix("not ") ? String(entry.dropFirst(4)) : entry
    }
}
