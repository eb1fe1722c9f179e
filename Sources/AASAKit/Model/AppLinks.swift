/// The `applinks` service: the app entries (`details`) with their rules,
/// plus the file-level `defaults` and `substitutionVariables`.
public struct AppLinks: Sendable {
    /// Where the service is written (`applinks`).
    public var path: JSONPath
    /// The entries in the order the system walks them.
    public var details: [AppLinksDetail]
    /// `applinks.defaults` when it is an object.
    public var defaults: JSONObject?
    /// `applinks.substitutionVariables`: name → alternatives. A value that
    /// is not an array defines nothing; non-string alternatives are skipped.
    public var substitutionVariables: [String: [String]]
    /// Whether `details` uses the pre-iOS 13 dictionary form
    /// (`{"TEAM.bundle": {...}}`), whose order is undefined.
    public var usesLegacyDetailsDictionary: Bool

    /// Reads an `applinks` object written at `path`.
    public init(object: JSONObject, path: JSONPath) {
        self.path = path
        let defaults = object["defaults"]?.objectValue
        self.defaults = defaults
        self.substitutionVariables = Self.readVariables(object["substitutionVariables"])
        let detailsPath = path.appending("details")
        switch object["details"] {
        case .array(let items)?:
            self.usesLegacyDetailsDictionary = false
            self.details = items.enumerated().map { index, item in
                AppLinksDetail(json: item, path: detailsPath.appending(index), index: index, fileDefaults: defaults)
            }
        case .object(let byAppID)?:
            // Pre-iOS 13 form: the key is the app ID. We keep written order.
            self.usesLegacyDetailsDictionary = true
            self.details = byAppID.members.enumerated().map { index, member in
                AppLinksDetail(
                    json: member.value,
                    path: detailsPath.appending(member.key),
                    index: index,
                    fileDefaults: defaults,
                    legacyAppID: member.key
                )
            }
        default:
            self.usesLegacyDetailsDictionary = false
            self.details = []
        }
    }

    /// The index into ``details`` of the entry that decides for `appID`: the
    /// first one listing it (a later repetition is ignored by the system).
    public func detailIndex(for appID: String) -> Int? {
        details.firstIndex { $0.appIDs.contains(appID) }
    }

    /// Reads `substitutionVariables`. Open behaviour, picked here: a value
    /// that is not an array defines nothing (the name stays undefined, or
    /// falls through to a built-in), and non-string alternatives are skipped.
    static func readVariables(_ value: JSONValue?) -> [String: [String]] {
        guard let object = value?.objectValue else { return [:] }
        var variables: [String: [String]] = [:]
        for (name, values) in object.members {
            guard let array = values.arrayValue else { continue }
            variables[name] = array.compactMap(\.stringValue)
        }
        return variables
    }
}
