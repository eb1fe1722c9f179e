extension LinkTestRunner {
    /// A usable file of the run with its matcher, compiled once. A class:
    /// every URL of the list reads it, from every core, and a copy of the
    /// struct retained each of the file's and the matcher's buffers.
    final class LoadedSite: Sendable {
        /// The host, its `*.` wildcard or the file's name: a result's `site`.
        let key: String
        let name: String
        let file: AASAFile
        let matcher: AASAMatcher
        /// The file's `applinks` app IDs, listed once rather than per URL.
        let appIDs: [String]
        /// The place of the site in the run's ``LinkTestRecords/sites``;
        /// -1 for a file compiled outside the run's list of them.
        let slot: Int
        /// The result of each rule that can decide, detail after detail: a
        /// ``LinkTestRecord`` names its rule by its place here.
        let decided: [MatchResult]
        /// Where each detail's rules start in ``decided``.
        private let ruleOffsets: [Int]

        init(key: String, name: String, file: AASAFile, slot: Int) {
            self.key = key
            self.name = name
            self.file = file
            self.slot = slot
            matcher = AASAMatcher(file: file)
            appIDs = file.appLinksAppIDs
            var offsets: [Int] = []
            var decided: [MatchResult] = []
            for (detail, count) in matcher.ruleCounts.enumerated() {
                offsets.append(decided.count)
                for position in 0..<count { decided.append(matcher.decided(detail: detail, position: position)) }
            }
            ruleOffsets = offsets
            self.decided = decided
        }

        /// The place in ``decided`` of the rule at `position` of `detail`.
        func rule(detail: Int32, position: Int32) -> Int32 {
            Int32(ruleOffsets[Int(detail)]) + position
        }
    }

    /// The usable files serving the hosts of the Apple entries of `items`,
    /// by site key, each with its place in the run (the order files are
    /// first needed).
    func loadedSites(_ items: UnsafeBufferPointer<LinkTestPlan.Item>) -> [String: LoadedSite] {
        var loaded: [String: LoadedSite] = [:]
        var hosts: Set<String> = []
        var lastHost: String?
        // In place (a copy of an item retains each of its fields), and a
        // host hashed only when it differs from the URL before: a list's
        // URLs are mostly of one host.
        for index in items.indices {
            guard items[index].entry.platform != .android, let host = items[index].host, host != lastHost
            else { continue }
            lastHost = host
            guard hosts.insert(host).inserted, let (key, site) = sites.site(for: host), loaded[key] == nil,
                let file = site.file
            else { continue }
            loaded[key] = LoadedSite(key: key, name: site.name, file: file, slot: loaded.count)
        }
        return loaded
    }
}
