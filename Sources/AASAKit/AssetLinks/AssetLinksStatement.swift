/// One statement of an `assetlinks.json`: a direct statement (relations
/// granted to a target) or an include of another file.
public struct AssetLinksStatement: Sendable {
    /// Position in the file's array.
    public var index: Int
    /// Where it is written: `[2]`.
    public var path: JSONPath
    /// The `relation` strings, as written (non-strings skipped).
    public var relations: [String]
    /// The target; `nil` for an include or an unreadable target.
    public var target: AssetLinksTarget?
    /// The `include` URL, for an include statement.
    public var include: String?
    /// Whether the statement has an `include` key, whatever its value.
    public var isInclude: Bool
    /// The Android 15+ dynamic App Link rules, when the statement carries
    /// `relation_extensions` → `delegate_permission/common.handle_all_urls`
    /// → `dynamic_app_link_components`.
    public var dynamicRules: DynamicRuleSet?

    /// Reads the statement at `index`; `nil` when it is not an object.
    init?(_ value: JSONValue, index: Int) {
        guard let object = value.objectValue else { return nil }
        self.index = index
        self.path = JSONPath([.index(index)])
        self.relations = object["relation"]?.arrayValue?.compactMap(\.stringValue) ?? []
        self.target = AssetLinksTarget(object["target"])
        self.include = object["include"]?.stringValue
        self.isInclude = object["include"] != nil
        self.dynamicRules = DynamicRuleSet(statement: object, at: path)
    }

    /// Whether the statement grants `relation` (exact spelling).
    public func grants(_ relation: String) -> Bool {
        !isInclude && relations.contains(relation)
    }

    /// Whether this statement verifies App Links for `packageName`.
    public func grantsAppLinks(to packageName: String) -> Bool {
        grants(AssetLinksRelation.handleAllURLs) && target?.packageName == packageName
    }
}
