/// What ``AASAMatcher`` compiled from a file, behind one reference: each
/// URL of a list reads the matcher out of the site that holds it, so a copy
/// of the matcher is one retain, not one per table.
///
/// Every property is a `let`: a change of ``domain`` makes a new instance
/// sharing the tables (``with(domain:)``). The app IDs are compiled with
/// the tables and never change apart from them.
final class CompiledMatcher: Sendable {
    let appIDs: [String]
    let domain: String?
    let rulesByDetail: [[CompiledRule]]
    let indexByDetail: [RuleIndex]
    /// The rules of `rulesByDetail` and indexes of `indexByDetail` again,
    /// not retained: those arrays keep them alive as long as this instance
    /// (both are `let`s, never replaced: that is what makes this sound),
    /// and a walk that retained each rule it reads made the two cores
    /// evaluating a list contend for the rules' reference counts. Detail
    /// `d`'s rule `p` is `unretainedRules[ruleStart[d] + p]`.
    let unretainedRules: [Unmanaged<CompiledRule>]
    let ruleStart: [Int]
    let unretainedIndexes: [Unmanaged<RuleIndex>]
    /// Each listed app ID with the first detail that lists it, in order:
    /// a file usually lists a few, and comparing the app ID with each costs
    /// less per URL than hashing it; a long list is looked up by hash.
    private let appIDDetails: [(appID: String, detail: Int)]
    private let detailByAppID: [String: Int]

    /// Up to this many app IDs are compared one by one.
    private static let fewAppIDs = 8

    /// Compiles every rule of `file` against `table`; `domain` lowercased.
    init(file: AASAFile, domain: String?, table: VariableTable) {
        self.domain = domain
        appIDs = file.appLinksAppIDs
        let details = file.appLinks?.details ?? []
        rulesByDetail = details.map { detail in
            detail.rules.map { CompiledRule(rule: $0, detailIndex: detail.index, variables: table) }
        }
        indexByDetail = rulesByDetail.map(RuleIndex.init(rules:))
        unretainedRules = rulesByDetail.flatMap { $0.map(Unmanaged.passUnretained) }
        ruleStart = rulesByDetail.reduce(into: [0]) { starts, rules in
            starts.append(starts[starts.count - 1] + rules.count)
        }
        unretainedIndexes = indexByDetail.map(Unmanaged.passUnretained)
        var byAppID: [String: Int] = [:]
        var listed: [(appID: String, detail: Int)] = []
        for detail in details {
            for id in detail.appIDs where byAppID[id] == nil {
                byAppID[id] = detail.index
                listed.append((id, detail.index))
            }
        }
        if listed.count > Self.fewAppIDs { listed = [] } else { byAppID = [:] }
        appIDDetails = listed
        detailByAppID = byAppID
    }

    private init(_ other: CompiledMatcher, domain: String?) {
        appIDs = other.appIDs
        self.domain = domain
        rulesByDetail = other.rulesByDetail
        indexByDetail = other.indexByDetail
        unretainedRules = other.unretainedRules
        ruleStart = other.ruleStart
        unretainedIndexes = other.unretainedIndexes
        appIDDetails = other.appIDDetails
        detailByAppID = other.detailByAppID
    }

    /// This compile for another domain: the tables are shared (they keep
    /// the rules the unretained references point at).
    func with(domain: String?) -> CompiledMatcher {
        CompiledMatcher(self, domain: domain)
    }

    /// The index of the first detail listing `appID`.
    func detail(listing appID: String) -> Int? {
        guard appIDDetails.isEmpty else { return appIDDetails.first { $0.appID == appID }?.detail }
        return detailByAppID[appID]
    }
}
