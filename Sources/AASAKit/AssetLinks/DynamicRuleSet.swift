/// A statement's Android 15+ dynamic App Link rules: the ordered list under
/// `relation_extensions` → `delegate_permission/common.handle_all_urls` →
/// `dynamic_app_link_components`.
public struct DynamicRuleSet: Sendable {
    /// Where the list is written.
    public var path: JSONPath
    /// The rules in order; entries that are not objects are skipped (the
    /// schema reports them, and Android then ignores the whole set).
    public var rules: [DynamicRule]

    static let extensionsKey = "relation_extensions"
    static let componentsKey = "dynamic_app_link_components"

    /// Reads the rules of `statement` (at `path`); `nil` when it has none.
    init?(statement: JSONObject, at path: JSONPath) {
        let relation = AssetLinksRelation.handleAllURLs
        guard let list = statement[Self.extensionsKey]?[relation]?[Self.componentsKey]?.arrayValue else {
            return nil
        }
        let listPath = path.appending(Self.extensionsKey).appending(relation).appending(Self.componentsKey)
        self.path = listPath
        self.rules = list.enumerated().compactMap { offset, value in
            value.objectValue.map { DynamicRule($0, index: offset, path: listPath.appending(offset)) }
        }
    }
}
