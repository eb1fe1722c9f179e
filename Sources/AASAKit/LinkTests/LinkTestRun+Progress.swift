extension LinkTestRun {
    /// What a run under way keeps: its plan, its records as they are made,
    /// the rare ones made whole so far (in list order), and what the report
    /// adds once every record is made. Used under its run's lock only.
    final class Progress {
        let runner: LinkTestRunner
        let plan: LinkTestPlan
        let lean: LinkTestRecords
        let loaded: [String: LinkTestRunner.LoadedSite]
        /// The app the run was given, the one it found for entries naming
        /// none, and the Android package for those naming none.
        let inputs: (given: LinkTestApp?, default: LinkTestApp?, package: String?)
        let planWarnings: BackgroundValue<[Diagnostic]>
        /// Whether the report is the records, one result per entry, so that
        /// they can be rendered as they are made. Worked out when asked: a
        /// run rendered only once done (JSON, a library's `run`) never asks.
        private(set) lazy var streams: Bool = {
            let runsBundleID = (inputs.given ?? inputs.default)?.isBundleID == true
            return !plan.containsItem { LinkTestRunner.testsBundleID($0, runsBundleID: runsBundleID) }
        }()
        /// The apps of the results, from the plan; `nil` unless ``streams``.
        private(set) lazy var plannedApps: Set<String>? = {
            guard streams else { return nil }
            return plan.items.withUnsafeBufferPointer { items in
                runner.plannedApps(
                    items,
                    app: inputs.given ?? inputs.default,
                    package: inputs.package,
                    loaded: loaded
                )
            }
        }()
        /// The records before this index have their whole results.
        private var resolved = 0
        private var android = LinkTestRunner.AndroidRunState()
        private var scratch = EvaluationScratch()

        init(
            runner: LinkTestRunner,
            plan: LinkTestPlan,
            lean: LinkTestRecords,
            loaded: [String: LinkTestRunner.LoadedSite],
            inputs: (given: LinkTestApp?, default: LinkTestApp?, package: String?),
            planWarnings: BackgroundValue<[Diagnostic]>
        ) {
            (self.runner, self.plan, self.lean, self.loaded) = (runner, plan, lean, loaded)
            self.inputs = inputs
            self.planWarnings = planWarnings
        }

        /// Waits for the records of `0..<end` and makes their rare ones
        /// whole, in list order: Android entries' matchers and coverage
        /// build up as they go.
        func complete(through end: Int) {
            guard end > resolved else { return }
            lean.table.wait(through: end)
            for index in resolved..<end where !lean.table[index].isLean {
                let item = plan.items[index]
                let result: LinkTestResult
                if item.entry.platform == .android {
                    result = runner.evaluateAndroid(
                        item,
                        package: item.entry.package ?? inputs.package,
                        state: &android
                    )
                } else {
                    let app = item.entry.app ?? inputs.given ?? inputs.default
                    // The first app always has a result: its decision, or why none.
                    result =
                        runner.evaluate(item, app: app, appIndex: 0, loaded: loaded, scratch: &scratch)
                        ?? LinkTestResult(entry: item.entry, failure: nil, message: "")
                }
                lean.setSide(result, at: index)
            }
            resolved = end
        }

        /// The report, once every record is made: a bundle ID's other apps'
        /// results, coverage and the warnings added.
        func report() -> LinkTestReport {
            complete(through: lean.count)
            let runApp = inputs.given ?? inputs.default
            // A bundle ID naming several apps of a file: one result per app.
            var more: [Int: [LinkTestResult]] = [:]
            var state = LinkTestRunner.RunState()
            for index in runner.gatheredIndices(plan, app: runApp) {
                let app = plan.items[index].entry.app ?? runApp
                if app?.isBundleID == true, lean.appID(at: index) != nil {
                    var appIndex = 1
                    while let next = runner.evaluate(
                        plan.items[index],
                        app: app,
                        appIndex: appIndex,
                        loaded: loaded,
                        scratch: &scratch
                    ) {
                        more[index, default: []].append(next)
                        appIndex += 1
                    }
                }
                // Without coverage, only a bundle ID naming several apps has
                // anything to gather (its warning).
                guard runner.coverage || more[index] != nil else { continue }
                runner.gather(lean.result(at: index), more: more[index] ?? [], app: app, loaded: loaded, state: &state)
            }
            // The plan's warnings (thousands for a list that repeats itself)
            // are shared, not copied, when nothing is added to them.
            var warnings = planWarnings.value()
            if !state.warnings.isEmpty { warnings += state.warnings }
            if runner.coverage { warnings += android.coverage.warnings }
            var uncovered: [UncoveredRule]?
            if runner.coverage {
                let rules = state.coverage.uncovered
                uncovered = rules
                warnings += rules.map(\.warning)
            }
            guard more.isEmpty else {
                let results = lean.results
                return LinkTestReport(
                    results: results.indices.flatMap { [results[$0]] + (more[$0] ?? []) },
                    warnings: warnings,
                    skipped: plan.skipped,
                    uncoveredRules: uncovered
                )
            }
            return LinkTestReport(records: lean, warnings: warnings, skipped: plan.skipped, uncoveredRules: uncovered)
        }
    }
}
