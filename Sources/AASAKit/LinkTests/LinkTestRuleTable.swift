/// The rules that decided a report's results, each written once: the JSON
/// report lists them in `rules` and each result names its rule by index.
///
/// In a long list most URLs are decided by a few hundred rules; writing
/// each rule's JSON (with its effective keys and variables) into every
/// result made three quarters of a 100,000-URL report.
public struct LinkTestRuleTable: Sendable {
    /// Each rule's compact JSON, in the order results first name them:
    /// `{"site", "index", "detail", "path", "rule", "effective",
    /// "viaDefaults", "variables"}` for an association file's rule,
    /// `{"site", "platform": "android", "index", "path", "rule"}` for a
    /// dynamic App Link rule.
    public private(set) var rules: [[UInt8]] = []
    /// For each result, its rule's place in ``rules``; -1 when none decided.
    private var indexByResult: [Int32] = []

    /// A rule is the same rule when it comes from the same file at the same
    /// place; an app ID sharing a `details` entry shares its rules.
    private enum Key: Hashable {
        case apple(site: String, detail: Int, rule: Int)
        case android(site: String, path: JSONPath)
    }

    public init(_ results: [LinkTestResult]) {
        var indexByKey: [Key: Int32] = [:]
        indexByResult.reserveCapacity(results.count)
        for position in results.indices {
            // By index, not by copy: a copy retains a result's twenty fields.
            guard let key = Self.key(of: results[position]) else {
                indexByResult.append(-1)
                continue
            }
            if let index = indexByKey[key] {
                indexByResult.append(index)
                continue
            }
            let index = Int32(rules.count)
            indexByKey[key] = index
            indexByResult.append(index)
            rules.append(Self.json(of: results[position]))
        }
    }

    /// The index in ``rules`` of the rule that decided the `position`-th
    /// result; `nil` when no rule did.
    /// How many results the table was built from.
    public var resultCount: Int { indexByResult.count }

    public func index(ofResult position: Int) -> Int? {
        let index = indexByResult[position]
        return index < 0 ? nil : Int(index)
    }

    private static func key(of result: borrowing LinkTestResult) -> Key? {
        let site = result.site ?? ""
        if let path = result.dynamicRule?.path { return .android(site: site, path: path) }
        guard let detail = result.rule?.detailIndex, let rule = result.rule?.ruleIndex else { return nil }
        return .apple(site: site, detail: detail, rule: rule)
    }

    private static func json(of result: LinkTestResult) -> [UInt8] {
        var object = JSONObject()
        object["site"] = .string(result.site ?? "")
        let rule: JSONValue
        if let dynamicRule = result.dynamicRule {
            object["platform"] = .string(LinkPlatform.android.rawValue)
            rule = dynamicRule.json
        } else {
            rule = result.rule?.json ?? .null
        }
        for (key, value) in rule.objectValue?.members ?? [] { object[key] = value }
        var writer = JSONTextWriter()
        writer.value(.object(object))
        return writer.bytes
    }
}
