import Foundation

/// The results of a run in their lean form: the plan's items (entry and
/// parsed URL), one ``LinkTestRecord`` per item, the few whole results
/// (``side``) and the sites the records name. The renderers of a long list
/// write from these; ``LinkTestResult``s are made only when a caller of
/// ``LinkTestReport/results`` asks, once.
final class LinkTestRecords: @unchecked Sendable {
    let items: [LinkTestPlan.Item]
    /// One per item, in list order.
    let records: [LinkTestRecord]
    /// The whole results of the records that are not lean.
    let side: [LinkTestResult]
    /// The sites the records name, by ``LinkTestRunner/LoadedSite/slot``.
    let sites: [LinkTestRunner.LoadedSite]
    let failedCount: Int

    // Unchecked Sendable: everything but the materialised results is a
    // `let`; those are written once, under the lock.
    private let lock = NSLock()
    private var materialised: [LinkTestResult]?

    init(
        items: [LinkTestPlan.Item],
        records: [LinkTestRecord],
        side: [LinkTestResult],
        sites: [LinkTestRunner.LoadedSite]
    ) {
        self.items = items
        self.records = records
        self.side = side
        self.sites = sites
        failedCount = records.withUnsafeBufferPointer { records in
            var count = 0
            for index in records.indices where !Self.passed(records[index], side: side) { count += 1 }
            return count
        }
    }

    private static func passed(_ record: LinkTestRecord, side: [LinkTestResult]) -> Bool {
        record.isLean ? record.failure == nil : side[Int(record.side)].passed
    }

    var count: Int { records.count }

    /// Every result, made whole on the first call.
    var results: [LinkTestResult] {
        lock.withLock {
            if let materialised { return materialised }
            let results = records.indices.map(result(at:))
            materialised = results
            return results
        }
    }

    /// The `index`-th result, made whole: what the run's evaluation of the
    /// item would have built.
    func result(at index: Int) -> LinkTestResult {
        let record = records[index]
        guard record.isLean else { return side[Int(record.side)] }
        let site = sites[Int(record.site)]
        let item = items[index]
        let decided = record.rule < 0 ? nil : site.decided[Int(record.rule)]
        return LinkTestResult(
            entry: item.entry,
            url: item.parsed,
            site: site.key,
            appID: site.appIDs[Int(record.app)],
            decision: record.decision,
            rule: decided?.rule,
            failure: record.failure,
            message: decided?.reason ?? AASAMatcher.noRuleMatched
        )
    }

    /// The app ID of the `index`-th result; `nil` when its test could not run.
    func appID(at index: Int) -> String? {
        let record = records[index]
        guard record.isLean else { return side[Int(record.side)].appID }
        return sites[Int(record.site)].appIDs[Int(record.app)]
    }

    /// The apps the results are for (app IDs, or Android packages).
    var apps: Set<String> {
        var apps: Set<String> = []
        var seen: Set<Int64> = []
        var last: Int64 = -1
        records.withUnsafeBufferPointer { records in
            for record in records {
                if record.isLean {
                    // A site's app is hashed once, not per URL: the records
                    // of a list mostly repeat the one before.
                    let key = Int64(record.site) << 32 | Int64(record.app)
                    guard key != last else { continue }
                    last = key
                    guard seen.insert(key).inserted else { continue }
                    apps.insert(sites[Int(record.site)].appIDs[Int(record.app)])
                } else if let app = side[Int(record.side)].app {
                    apps.insert(app)
                }
            }
        }
        return apps
    }
}
