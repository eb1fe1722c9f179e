/// One `applinks.details` entry: the apps it names and their rules in order.
public struct AppLinksDetail: Sendable {
    /// Where the entry comes from in the rules: `components`, legacy `paths`,
    /// or neither (the entry then has no rules and matches nothing).
    public enum RulesSource: String, Sendable {
        case components
        case paths
        case none
    }

    /// Where the entry is written: `applinks.details[0]`, or
    /// `applinks.details["TEAM.bundle"]` for the dictionary form.
    public var path: JSONPath
    /// The position in ``AppLinks/details``.
    public var index: Int
    /// The entry as written.
    public var json: JSONValue
    /// The app IDs: `appIDs` when it is an array (non-strings skipped), else
    /// `appID` when it is a string, else none. For the dictionary form, the key.
    public var appIDs: [String]
    /// `defaults` of this entry when it is an object.
    public var defaults: JSONObject?
    /// Which key supplied ``rules``.
    public var rulesSource: RulesSource
    /// The rules in the order the system tries them, defaults already merged.
    public var rules: [Rule]

    /// - Parameter legacyAppID: the key of a dictionary-form entry, which is
    ///   its only app ID.
    public init(json: JSONValue, path: JSONPath, index: Int, fileDefaults: JSONObject?, legacyAppID: String? = nil) {
        self.path = path
        self.index = index
        self.json = json
        if let legacyAppID {
            self.appIDs = [legacyAppID]
        } else if let ids = json["appIDs"]?.arrayValue {
            self.appIDs = ids.compactMap(\.stringValue)
        } else if let id = json["appID"]?.stringValue {
            self.appIDs = [id]
        } else {
            self.appIDs = []
        }
        let detailDefaults = json["defaults"]?.objectValue
        self.defaults = detailDefaults
        var merged = fileDefaults ?? JSONObject()
        for (key, value) in detailDefaults?.members ?? [] {
            merged[key] = value
        }
        if let components = json["components"]?.arrayValue {
            // An array `components`, even an empty one, hides `paths` (iOS 13+).
            self.rulesSource = .components
            let componentsPath = path.appending("components")
            // Mapped over the indices, a collection of known size: the
            // array is allocated once (an enumerated sequence grew it).
            self.rules = components.indices.map { index in
                Rule(
                    component: components[index],
                    in: componentsPath,
                    index: index,
                    defaults: merged
                )
            }
        } else if let paths = json["paths"]?.arrayValue {
            self.rulesSource = .paths
            let pathsPath = path.appending("paths")
            self.rules = paths.indices.map { index in
                Rule(legacyPath: paths[index], in: pathsPath, index: index, defaults: merged)
            }
        } else {
            self.rulesSource = .none
            self.rules = []
        }
    }
}
