import Foundation

/// The results of a run in their lean form: the plan's items (entry and
/// parsed URL), one ``LinkTestRecord`` per item, the few whole results
/// (``side``) and the sites the records name. The renderers of a long list
/// write from these; ``LinkTestResult``s are made only when a caller of
/// ``LinkTestReport/results`` asks, once.
///
/// A run under way fills it from the start of the list
/// (``LinkTestRun``): the records of a prefix are read only once made, and
/// its rare ones' whole results added in list order; a report holds it
/// only once all are.
final class LinkTestRecords: @unchecked Sendable {
    let items: [LinkTestPlan.Item]
    /// One per item, in list order.
    let table: LinkTestRecordTable
    /// The whole results of the records that are not lean, in list order:
    /// added under the run's lock (``LinkTestRun``) before the records
    /// naming them are read.
    private(set) var side: [LinkTestResult] = []
    /// The sites the records name, by ``LinkTestRunner/LoadedSite/slot``.
    let sites: [LinkTestRunner.LoadedSite]

    // Unchecked Sendable: besides `side` (see above), everything but the
    // materialised results and the failure count is a `let`; those are
    // written once, under the lock, once every record is made.
    private let lock = NSLock()
    private var materialised: [LinkTestResult]?
    private var failures: Int?

    init(items: [LinkTestPlan.Item], table: LinkTestRecordTable, sites: [LinkTestRunner.LoadedSite]) {
        self.items = items
        self.table = table
        self.sites = sites
    }

    /// Makes the record at `index` whole with `result`: the run's rare
    /// records, in list order.
    func setSide(_ result: LinkTestResult, at index: Int) {
        table[index].side = Int32(side.count)
        side.append(result)
    }

    /// How many results failed; every record must be made.
    var failedCount: Int {
        lock.withLock {
            if let failures { return failures }
            let count = table.withRecords { records in
                var count = 0
                for index in records.indices where !Self.passed(records[index], side: side) { count += 1 }
                return count
            }
            failures = count
            return count
        }
    }

    private static func passed(_ record: LinkTestRecord, side: [LinkTestResult]) -> Bool {
        record.isLean ? record.failure == nil : side[Int(record.side)].passed
    }

    var count: Int { table.count }

    /// Every result, made whole on the first call.
    var results: [LinkTestResult] {
        lock.withLock {
            if let materialised { return materialised }
            let results = (0..<count).map(result(at:))
            materialised = results
            return results
        }
    }

    /// The `index`-th result, made whole: what the run's evaluation of the
    /// item would have built.
    func result(at index: Int) -> LinkTestResult {
        let record = table[index]
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
        let record = table[index]
        guard record.isLean else { return side[Int(record.side)].appID }
        return sites[Int(record.site)].appIDs[Int(record.app)]
    }

    /// The apps the results are for (app IDs, or Android packages).
    var apps: Set<String> {
        var apps: Set<String> = []
        var seen: Set<Int64> = []
        var last: Int64 = -1
        table.withRecords { records in
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
