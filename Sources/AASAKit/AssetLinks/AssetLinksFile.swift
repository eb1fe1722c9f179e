/// An `assetlinks.json` read the way Android reads it: the statements with
/// their targets and dynamic App Link rules.
///
/// Reading is lenient and never fails; strictness is
/// ``AssetLinksValidator``'s job. Google rejects a whole file when one
/// statement is malformed, so code deciding what Android does must look at
/// the validation report too (``DynamicLinkMatcher`` does that itself).
public struct AssetLinksFile: Sendable {
    /// The document.
    public let json: JSONValue
    /// The statements that are objects, in file order.
    public let statements: [AssetLinksStatement]

    /// Reads `json`; a root that is not an array has no statements.
    public init(json: JSONValue) {
        self.json = json
        self.statements = (json.arrayValue ?? []).enumerated().compactMap { offset, value in
            AssetLinksStatement(value, index: offset)
        }
    }

    /// Parses and reads `bytes`; `nil` when they are not JSON (validate them
    /// with ``AssetLinksValidator`` to learn why).
    public init?(bytes: [UInt8]) {
        guard let document = try? JSONParser().parse(bytes) else { return nil }
        self.init(json: document.value)
    }

    /// The packages granted `delegate_permission/common.handle_all_urls`, in
    /// order of first appearance: the apps whose App Links this site verifies.
    public var appLinkPackages: [String] {
        packages(granted: AssetLinksRelation.handleAllURLs)
    }

    /// The packages granted `relation`, in order of first appearance.
    public func packages(granted relation: String) -> [String] {
        var seen = Set<String>()
        return statements.compactMap { statement in
            guard statement.grants(relation), let name = statement.target?.packageName else { return nil }
            return seen.insert(name).inserted ? name : nil
        }
    }

    /// Every fingerprint listed for `packageName` under `relation`, in order,
    /// without repeats: the signing certificates Android accepts for it.
    public func fingerprints(
        of packageName: String,
        granted relation: String = AssetLinksRelation.handleAllURLs
    )
        -> [String]
    {
        var seen = Set<String>()
        var result: [String] = []
        for statement in statements where statement.grants(relation) {
            guard case .androidApp(packageName, let fingerprints)? = statement.target else { continue }
            for fingerprint in fingerprints where seen.insert(fingerprint).inserted {
                result.append(fingerprint)
            }
        }
        return result
    }
}
