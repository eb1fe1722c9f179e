extension LinkTestRunner {
    /// A usable file of the run, with its matcher. A class: every URL of
    /// the list reads it, from every core, and a copy of the struct
    /// retained each of the file's and the matcher's buffers.
    final class LoadedSite: Sendable {
        /// The host, its `*.` wildcard or the file's name: a result's `site`.
        let key: String
        /// The host's own file, which reports and coverage name.
        let name: String
        let file: AASAFile
        /// The place of the site in the run's ``LinkTestRecords/sites``;
        /// -1 for a file compiled outside the run's list of them.
        let slot: Int
        /// What the file decides, shared by every site serving an identical
        /// file.
        let compiled: CompiledSite

        init(key: String, name: String, file: AASAFile, slot: Int, compiled: CompiledSite) {
            self.key = key
            self.name = name
            self.file = file
            self.slot = slot
            self.compiled = compiled
        }

        convenience init(key: String, name: String, file: AASAFile, slot: Int) {
            self.init(key: key, name: name, file: file, slot: slot, compiled: CompiledSite(file))
        }

        var matcher: AASAMatcher { compiled.matcher }
        /// The file's `applinks` app IDs, listed once rather than per URL.
        var appIDs: [String] { compiled.appIDs }
        /// The result of each rule that can decide, detail after detail: a
        /// ``LinkTestRecord`` names its rule by its place here.
        var decided: [MatchResult] { compiled.decided }

        /// The place in ``decided`` of the rule at `position` of `detail`.
        func rule(detail: Int32, position: Int32) -> Int32 {
            compiled.rule(detail: detail, position: position)
        }
    }

    /// The usable files serving the hosts of the Apple entries of `items`,
    /// by site key, each with its place in the run (the order files are
    /// first needed). Only the hosts the list names are compiled, each
    /// distinct file once, the distinct files across the cores.
    func loadedSites(_ items: UnsafeBufferPointer<LinkTestPlan.Item>) -> [String: LoadedSite] {
        var needed: [(key: String, name: String, file: AASAFile)] = []
        var keys: Set<String> = []
        var hosts: Set<String> = []
        var lastHost: String?
        // Whether the last URL that parsed was an Apple entry's, whose host
        // this loop has then seen.
        var lastParsedIsApple = false
        // In place (a copy of an item retains each of its fields), and a
        // host hashed only when it differs from the URL before: a list's
        // URLs are mostly of one host. One the parse found equal to the
        // host of the URL parsed before it (``LinkTestPlan/Item/hostRepeats``)
        // is not compared again: that host was seen if that URL was Apple's
        // (the compare took the string's slow path for most of a list).
        // That URL is the item's last parsed one here too: `--domain` sets
        // an item aside only with the URL whose host it repeats.
        for index in items.indices {
            let isApple = items[index].entry.platform != .android
            let repeats = items[index].hostRepeats && lastParsedIsApple
            // A hash is made exactly for a URL that parses.
            if items[index].urlHash != nil { lastParsedIsApple = isApple }
            guard isApple, !repeats, let host = items[index].host, host != lastHost else { continue }
            lastHost = host
            guard hosts.insert(host).inserted, let (key, site) = sites.site(for: host), !keys.contains(key),
                let file = site.file
            else { continue }
            keys.insert(key)
            needed.append((key, site.name, file))
        }
        // Those compiled ahead taken as they are; the others compiled now.
        let ahead = needed.map { compiledAhead?.site(for: $0.file) }
        var fresh = CompiledSite.compile(needed.indices.filter { ahead[$0] == nil }.map { needed[$0].file }).sites[...]
        let compiled = ahead.map { $0 ?? fresh.removeFirst() }
        var loaded: [String: LoadedSite] = [:]
        for (slot, site) in needed.enumerated() {
            loaded[site.key] = LoadedSite(
                key: site.key,
                name: site.name,
                file: site.file,
                slot: slot,
                compiled: compiled[slot]
            )
        }
        return loaded
    }
}
