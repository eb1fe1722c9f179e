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
            indexByResult.append(index(of: results[position], indexByKey: &indexByKey))
        }
    }

    /// The table of a report's results: from its lean form when it has one
    /// (a rule's key is made once, not once per result).
    public init(_ report: LinkTestReport) {
        if let records = report.records { self.init(records) } else { self.init(report.results) }
    }

    private init(_ records: LinkTestRecords) {
        var indexByKey: [Key: Int32] = [:]
        // Each site's rules, one number each across the run; -2: not yet named.
        var bases: [Int] = []
        var total = 0
        for site in records.sites {
            bases.append(total)
            total += site.decided.count
        }
        var indexBySlot = [Int32](repeating: -2, count: total)
        indexByResult.reserveCapacity(records.count)
        for position in 0..<records.count {
            let record = records.table[position]
            guard record.isLean else {
                indexByResult.append(index(of: records.side[Int(record.side)], indexByKey: &indexByKey))
                continue
            }
            guard record.rule >= 0 else {
                indexByResult.append(-1)
                continue
            }
            let slot = bases[Int(record.site)] + Int(record.rule)
            if indexBySlot[slot] == -2 {
                let site = records.sites[Int(record.site)]
                let rule = site.decided[Int(record.rule)].rule
                indexBySlot[slot] = index(
                    for: .apple(site: site.key, detail: rule?.detailIndex ?? -1, rule: rule?.ruleIndex ?? -1),
                    indexByKey: &indexByKey
                ) { Self.json(site: site.key, android: false, rule: rule?.json ?? .null) }
            }
            indexByResult.append(indexBySlot[slot])
        }
    }

    /// The place in ``rules`` of the rule that decided `result`, added when
    /// new; -1 when no rule decided.
    private mutating func index(of result: borrowing LinkTestResult, indexByKey: inout [Key: Int32]) -> Int32 {
        guard let key = Self.key(of: result) else { return -1 }
        return index(for: key, indexByKey: &indexByKey) { Self.json(of: result) }
    }

    private mutating func index(for key: Key, indexByKey: inout [Key: Int32], json: () -> [UInt8]) -> Int32 {
        if let index = indexByKey[key] { return index }
        let index = Int32(rules.count)
        indexByKey[key] = index
        rules.append(json())
        return index
    }

    /// How many results the table was built from.
    public var resultCount: Int { indexByResult.count }

    /// The index in ``rules`` of the rule that decided the `position`-th
    /// result; `nil` when no rule did.
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

    private static func json(of result: borrowing LinkTestResult) -> [UInt8] {
        if let dynamicRule = result.dynamicRule {
            return json(site: result.site ?? "", android: true, rule: dynamicRule.json)
        }
        return json(site: result.site ?? "", android: false, rule: result.rule?.json ?? .null)
    }

    private static func json(site: String, android: Bool, rule: JSONValue) -> [UInt8] {
        var object = JSONObject()
        object["site"] = .string(site)
        if android { object["platform"] = .string(LinkPlatform.android.rawValue) }
        for (key, value) in rule.objectValue?.members ?? [] { object[key] = value }
        var writer = JSONTextWriter()
        writer.value(.object(object))
        return writer.bytes
    }
}
