extension LinkTestRunner {
    /// What a run accumulates for its Android entries.
    struct AndroidRunState {
        var matchers: [String: DynamicLinkMatcher] = [:]
        var coverage = AndroidLinkCoverage()
    }

    /// Judges an Android entry by the dynamic App Link rules of the
    /// `assetlinks.json` serving its host, for `package` (`nil`: none was
    /// given and no file could tell).
    ///
    /// Everything that keeps the rules from deciding is a failure, whatever
    /// the entry expects: no file, a file Google rejects, a package the file
    /// does not grant App Links, or rules Android ignores (the intent
    /// filters then decide, which aasa cannot see). A "must not open" entry
    /// never passes because nothing was evaluated.
    func evaluateAndroid(
        _ item: LinkTestPlan.Item,
        package: String?,
        state: inout AndroidRunState
    ) -> LinkTestResult {
        let entry = item.entry
        let url: AASAURL
        switch item.url {
        case .failure(let error):
            return LinkTestResult(entry: entry, failure: .invalidURL, message: error.description, package: package)
        case .success(let parsed):
            url = parsed
        }
        func failed(_ failure: LinkTestFailure, site: String? = nil, _ message: String) -> LinkTestResult {
            LinkTestResult(entry: entry, url: url, site: site, failure: failure, message: message, package: package)
        }
        guard let (key, site) = sites.site(for: url.host) else {
            return failed(
                .noFile,
                "no host directory serves \(url.host) (files for: \(sites.hostNames.joined(separator: ", ")))"
            )
        }
        let file: AssetLinksFile
        let name: String
        switch site.assetLinks {
        case nil:
            return failed(
                .noFile,
                site: key,
                "\(key) serves no assetlinks.json: Android verifies no App Link for \(url.host)"
            )
        case .unusable(let reason)?:
            return failed(.fileUnusable, site: key, reason)
        case .file(let usable, let fileName)?:
            file = usable
            name = fileName
        }
        let matcher = state.matchers[key] ?? DynamicLinkMatcher(file: file)
        state.matchers[key] = matcher
        if let rejection = matcher.rejection {
            return failed(
                .fileUnusable,
                site: key,
                "Google rejects \(name) (\(rejection)): no App Link verifies from it"
            )
        }
        guard let package else {
            return failed(
                .appNotListed,
                site: key,
                "no Android package given for this entry (--package or \"package\")"
            )
        }
        guard matcher.packages.contains(package) else {
            var message = "\(package) is not granted \(AssetLinksRelation.handleAllURLs) in \(name)"
            message +=
                matcher.packages.isEmpty
                ? " (it grants no app)" : " (granted: \(matcher.packages.joined(separator: ", ")))"
            return failed(.appNotListed, site: key, message)
        }
        let result = matcher.evaluate(url, package: package)
        if coverage { state.coverage.tested(package, site: key, name: name, file: file) }
        let decision: MatchDecision
        switch result.decision {
        case .intentFilters: return failed(.intentFilters, site: key, result.reason)
        case .matched: decision = .matched
        case .blocked: decision = .blocked
        case .none: decision = .none
        }
        if coverage, let rule = result.rule { state.coverage.decided(rule, site: key) }
        return LinkTestResult(
            entry: entry,
            url: url,
            site: key,
            decision: decision,
            failure: Self.failure(expecting: entry.expectation, decision: decision),
            message: result.reason,
            notes: result.notes,
            package: package,
            dynamicRule: result.rule
        )
    }

    /// How a decision fails an expectation; `nil` when it meets it.
    private static func failure(
        expecting expectation: LinkExpectations.Expectation,
        decision: MatchDecision
    ) -> LinkTestFailure? {
        switch (expectation, decision) {
        case (.matched, .matched), (.blocked, .blocked), (.none, .none), (.notMatched, .blocked), (.notMatched, .none):
            nil
        case (.matched, .none), (.blocked, .none):
            .unhandled
        case (.matched, .blocked), (.none, .blocked):
            .excluded
        case (.blocked, .matched), (.none, .matched), (.notMatched, .matched):
            .incorrectlyHandled
        }
    }
}

/// Which dynamic rules decided which Android URLs during a run: a rule of a
/// tested package that decided nothing is a `links.uncovered-rule` warning,
/// as for Apple.
struct AndroidLinkCoverage {
    private struct Tested {
        var site: String
        var name: String
        var package: String
        var rules: [DynamicRule]
    }

    private var tested: [Tested] = []
    private var decided: Set<String> = []

    /// Notes that `package` was tested at `site`, so its rules count.
    mutating func tested(_ package: String, site: String, name: String, file: AssetLinksFile) {
        guard !tested.contains(where: { $0.site == site && $0.package == package }) else { return }
        let rules = file.statements.filter { $0.grantsAppLinks(to: package) }.compactMap(\.dynamicRules)
            .flatMap(\.rules)
        tested.append(Tested(site: site, name: name, package: package, rules: rules))
    }

    /// Notes that `rule` decided a URL at `site`.
    mutating func decided(_ rule: DynamicRule, site: String) {
        decided.insert("\(site) \(rule.path)")
    }

    /// One warning per rule of a tested package that decided nothing, by
    /// site, then in file order.
    var warnings: [Diagnostic] {
        tested.sorted { ($0.site, $0.package) < ($1.site, $1.package) }.flatMap { item in
            item.rules.filter { !decided.contains("\(item.site) \($0.path)") }.map { rule in
                Diagnostic(
                    .warning,
                    code: "links.uncovered-rule",
                    path: rule.path,
                    message:
                        "no URL of the links list is decided by this dynamic \(rule.isExclusion ? "exclusion" : "rule") \(rule.display) (for \(item.package) at \(item.site))",
                    file: item.name
                )
            }
        }
    }
}
