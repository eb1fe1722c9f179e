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
        // About one pattern per rule: reserved once rather than grown.
        sites.reserveCapacity(
            items.reduce(4) { count, entry in
                count + (entry.item["components"]?.arrayValue?.count ?? entry.item["paths"]?.arrayValue?.count ?? 0)
            }
        )
        let fileDefaults = applinks?["defaults"]?.objectValue
        // The flags are resolved once per level (file defaults, entry
        // defaults) and each component adds only its own keys.
        let fileFlags = fileDefaults.map { EffectiveFlags($0, over: .system) } ?? .system
        if let fileDefaults {
            let container = Container(parent: applinksPath.appending("defaults"))
            collectPatterns(in: fileDefaults, at: container, flags: fileFlags, into: &sites)
        }
        for (itemPath, item) in items {
            let itemDefaults = item["defaults"]?.objectValue
            let itemFlags = itemDefaults.map { EffectiveFlags($0, over: fileFlags) } ?? fileFlags
            if let itemDefaults {
                let container = Container(parent: itemPath.appending("defaults"))
                collectPatterns(in: itemDefaults, at: container, flags: itemFlags, into: &sites)
            }
            if case .array(let components) = item["components"] {
                let componentsPath = itemPath.appending("components")
                for (offset, component) in components.enumerated() {
                    guard let object = component.objectValue else { continue }
                    collectPatterns(
                        in: object,
                        at: Container(parent: componentsPath, index: offset),
                        flags: EffectiveFlags(object, over: itemFlags),
                        into: &sites
                    )
                }
            }
            if case .array(let paths) = item["paths"] {
                let pathsPath = itemPath.appending("paths")
                for (offset, entry) in paths.enumerated() {
                    guard let text = entry.stringValue else { continue }
                    sites.append(
                        PatternSite(
                            container: Container(parent: pathsPath),
                            member: .index(offset),
                            pattern: LegacyPath.strippingExclusionPrefix(text),
                            kind: .legacyPath,
                            flags: itemFlags
                        )
                    )
                }
            }
        }
        return sites
    }

    /// Appends the `/`, `?` and `#` patterns of one component or defaults
    /// object (to the file's list, not through an array per component).
    private static func collectPatterns(
        in object: JSONObject,
        at path: Container,
        flags: EffectiveFlags,
        into sites: inout [PatternSite]
    ) {
        // By key, in written order; a value is looked up only for the
        // three pattern keys (most members are `exclude`, `comment` and
        // flags, and this runs for every component on load).
        for key in object.keys where key == "/" || key == "#" || key == "?" {
            switch (key, object[key]) {
            case ("/", .string(let pattern)?):
                sites.append(
                    PatternSite(container: path, member: .key(key), pattern: pattern, kind: .path, flags: flags)
                )
            case ("#", .string(let pattern)?):
                sites.append(
                    PatternSite(container: path, member: .key(key), pattern: pattern, kind: .fragment, flags: flags)
                )
            case ("?", .string(let pattern)?):
                sites.append(
                    PatternSite(container: path, member: .key(key), pattern: pattern, kind: .query, flags: flags)
                )
            case ("?", .object(let items)?):
                for name in items.keys {
                    guard let pattern = items[name]?.stringValue else { continue }
                    sites.append(
                        PatternSite(
                            container: path,
                            member: .key(key),
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

    /// The object or array holding the pattern: the component, the
    /// defaults object or `paths`.
    var container: Container
    /// The pattern's key (`/`, `?`, `#`) or its index in `paths`.
    var member: JSONPath.Component
    var pattern: String
    var kind: Kind
    var flags: EffectiveFlags

    /// Where the pattern is written. Built for a finding only: the lints
    /// visit every pattern of every file the origin loads, and almost all
    /// of them have nothing to report.
    var path: JSONPath {
        let memberPath =
            switch member {
            case .key(let key): container.path.appending(key)
            case .index(let index): container.path.appending(index)
            }
        if case .queryItem(let name) = kind { return memberPath.appending(name) }
        return memberPath
    }
}

/// Where a pattern's object or array is: its parent's path and, for a
/// component, its index in `components`. The component's own path (an
/// array per component of every file loaded) is built only for a finding.
struct Container {
    var parent: JSONPath
    var index: Int?

    var path: JSONPath { index.map { parent.appending($0) } ?? parent }
}

/// The `caseSensitive`/`percentEncoded` values a rule ends up with after the
/// defaults merge (§4) and the system's coercion of non-boolean values (§2,
/// as ``ComponentKeys/flag(_:default:)`` reads them).
struct EffectiveFlags: Equatable {
    var caseSensitive: Bool
    var percentEncoded: Bool

    /// What applies where no object sets either key.
    static let system = EffectiveFlags(caseSensitive: true, percentEncoded: true)

    init(caseSensitive: Bool, percentEncoded: Bool) {
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
    }

    /// The flags of `object` (a component or a defaults object) over those
    /// of the level above it: a key it holds decides, whatever its value.
    init(_ object: JSONObject, over inherited: EffectiveFlags) {
        caseSensitive = object["caseSensitive"].map { ComponentKeys.flag($0, default: true) } ?? inherited.caseSensitive
        percentEncoded =
            object["percentEncoded"].map { ComponentKeys.flag($0, default: true) } ?? inherited.percentEncoded
    }
}

/// Legacy `paths` spelling rules (§6.4).
enum LegacyPath {
    /// `NOT ` (any case) marks an exclusion; the pattern is what follows.
    static func strippingExclusionPrefix(_ entry: String) -> String {
        entry.lowercased().hasPrefix("not ") ? String(entry.dropFirst(4)) : entry
    }
}
