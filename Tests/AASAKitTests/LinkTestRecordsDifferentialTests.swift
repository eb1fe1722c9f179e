import Testing

@testable import AASAKit

/// A run's lean results (records into the run's tables, rare outcomes whole)
/// must render exactly as the ``LinkTestResult``s they stand for: random
/// lists mixing every outcome (rules deciding for or against, none, http,
/// unparsable URLs, hosts without a file or with an unusable one, notes,
/// unhandled URLs with their explanation, Android entries, several links
/// files), long enough to be split across the cores.
@Suite struct LinkTestRecordsDifferentialTests {
    static let apple = AASAFile(json: [
        "applinks": [
            "substitutionVariables": ["lang": ["en", "fr"]],
            "details": [
                // Another app's entry first: the tested app's rules sit at an
                // offset in the file's rule list, which a record must get right.
                [
                    "appIDs": ["VWXYZ67890.com.example.other"],
                    "components": [["/": "/shop/*", "exclude": true], ["/": "*"]],
                ],
                [
                    "appIDs": ["ABCDE12345.com.example.app"],
                    "components": [
                        ["/": "/account/*", "exclude": true, "comment": "no \"account\" pages"],
                        ["/": "/shop/*"],
                        ["/": "/$(lang)/menu/*"],
                        ["/": "/help/*", "?": ["q": "?*"]],
                        // Never matches: every URL it is tried on gets a note.
                        ["/": "/$(undefined)/*"],
                        ["#": "promo"],
                    ],
                ],
            ],
        ]
    ])

    static let rules = AndroidLinkTestTests.assetLinks(
        AssetLinksSample.rules(#"[{"/":"/account/*","exclude":true},{"/":"/shop/*"}]"#)
    )

    static let sites = LinkTestSites(byHost: [
        "example.com": .init(name: "site/example.com", content: .file(apple), assetLinks: rules),
        "www.example.com": .init(name: "site/www.example.com", content: .file(apple)),
        "broken.example.com": .init(name: "site/broken", content: .unusable("not JSON")),
    ])

    static let hosts = ["example.com", "www.example.com", "broken.example.com", "elsewhere.example"]
    static let paths = [
        "/shop/%d", "/account/%d", "/en/menu/%d", "/de/menu/%d", "/help/%d?q=x", "/help/%d", "/x/%d#promo",
        "/other/%d", "/caf\u{E9}/%d", "/shop/%25zz%d",
    ]

    /// A list of `count` entries drawn with `generator`.
    static func entries(count: Int, random: inout TestRandom) -> [LinkExpectations.Entry] {
        (0..<count).map { index in
            let host = hosts[random.below(index % 5 == 0 ? hosts.count : 2)]
            let path = paths[random.below(paths.count)].replacing("%d", with: "\(index % 300)")
            let scheme = random.below(10) == 0 ? "http" : "https"
            var url = "\(scheme)://\(host)\(path)"
            if random.below(40) == 0 { url = "not a URL \(index)" }
            let expectation = LinkExpectations.Expectation.allCases[random.below(4)]
            let android = random.below(12) == 0 && expectation != .notMatched
            let list = expectation == .notMatched ? "non_deep_linkable_urls" : "deep_linkable_urls"
            return LinkExpectations.Entry(
                url: url,
                expectation: expectation,
                platform: android ? .android : .apple,
                path: JSONPath([.key(android ? "links" : list), .index(index)]),
                file: index % 3 == 0 ? "links \"a\".json" : "links-b.json"
            )
        }
    }

    static let app = LinkTestApp.appID("ABCDE12345.com.example.app")

    /// `entries` tested for ``app`` (and the sample package), as the CLI runs them.
    static func run(_ entries: [LinkExpectations.Entry]) throws -> LinkTestReport {
        try LinkTestRunner(sites: sites).run(LinkExpectations(entries: entries), app: app, package: "com.example.app")
    }

    @Test(arguments: [1, 2, 3])
    func leanResultsRenderAsTheirWholeResults(seed: UInt64) throws {
        var random = TestRandom(seed: 0x1EA7_0000 + seed)
        let entries = Self.entries(count: ParallelBatch.minimumChunk * 2 + 31, random: &random)
        let report = try Self.run(entries)
        let records = try #require(report.records)
        // Every kind of outcome is in the list, lean and whole.
        let failures = Set(report.results.compactMap(\.failure))
        #expect(failures.isSuperset(of: [.unhandled, .excluded, .incorrectlyHandled, .httpScheme, .invalidURL]))
        #expect(failures.isSuperset(of: [.noFile, .fileUnusable]))
        #expect(records.table.withRecords { $0.contains { $0.isLean } && $0.contains { !$0.isLean } })
        #expect(report.results.contains { !$0.notes.isEmpty && $0.entry.platform == .apple })
        #expect(report.results.contains { $0.entry.platform == .android && $0.dynamicRule != nil })

        let whole = LinkTestReport(results: report.results, warnings: report.warnings, skipped: report.skipped)
        #expect(whole.records == nil)
        let leanRules = LinkTestRuleTable(report)
        let wholeRules = LinkTestRuleTable(whole)
        #expect(leanRules.rules == wholeRules.rules)
        // Line by line, so that a difference names its result.
        let lean = Self.lines(report.resultLines(level: 2, rules: leanRules))
        let expected = Self.lines(whole.resultLines(level: 2, rules: wholeRules))
        #expect(lean.count == expected.count)
        for (line, wholeLine) in zip(lean, expected) where line != wholeLine {
            Issue.record("lean: \(line)\nwhole: \(wholeLine)")
            break
        }
        for appColumn in [false, true] {
            let leanText = Self.lines(report.textLines(appColumn: appColumn))
            let wholeText = Self.lines(whole.textLines(appColumn: appColumn))
            #expect(leanText.count == wholeText.count)
            for (line, wholeLine) in zip(leanText, wholeText) where line != wholeLine {
                Issue.record("lean: \(line)\nwhole: \(wholeLine)")
                break
            }
        }
        #expect(report.apps == whole.apps)
        #expect(report.failedCount == whole.failedCount)
        #expect(report.passedCount == whole.passedCount)
    }

    /// The records against the straightforward evaluation: every Apple
    /// entry's result, made whole from its record (or kept whole), is the
    /// one ``LinkTestRunner/evaluate(_:app:appIndex:loaded:scratch:)``
    /// gives it — the path every result took before records — compared
    /// through its whole JSON (rule written out, not by table index).
    @Test(arguments: [1, 2, 3])
    func recordsStandForWhatEvaluationDecides(seed: UInt64) throws {
        var random = TestRandom(seed: 0x5EC0_0000 + seed)
        let expectations = LinkExpectations(
            entries: Self.entries(count: ParallelBatch.minimumChunk * 2 + 31, random: &random)
        )
        let app = Self.app
        let runner = LinkTestRunner(sites: Self.sites)
        let report = try Self.run(expectations.entries)
        let plan = try LinkTestPlan(expectations, sites: Self.sites, domain: nil)
        let loaded = plan.items.withUnsafeBufferPointer(runner.loadedSites)
        var scratch = EvaluationScratch()
        var lean = 0
        for (index, item) in plan.items.enumerated() where item.entry.platform == .apple {
            let expected = try #require(runner.evaluate(item, app: app, appIndex: 0, loaded: loaded, scratch: &scratch))
            if try report.results[index].json != expected.json {
                Issue.record("entry \(index): \(try report.results[index].json) is not \(try expected.json)")
                break
            }
            if report.records?.table[index].isLean == true { lean += 1 }
        }
        // Most entries went the lean way: the comparison is of records.
        #expect(lean > plan.items.count / 3)
    }

    /// A report rendered window by window (as the CLI streams it) is the
    /// report rendered whole, lean and whole forms, JSON and text, for
    /// windows that split the parallel chunks anywhere.
    @Test(arguments: [1, 977, ParallelBatch.minimumChunk * 3])
    func windowsRenderAsTheWholeReport(window: Int) throws {
        var random = TestRandom(seed: 0x1EA7_3D0 + UInt64(window))
        let entries = Self.entries(count: ParallelBatch.minimumChunk * 4 + 13, random: &random)
        let report = try Self.run(entries)
        let whole = LinkTestReport(results: report.results, warnings: report.warnings, skipped: report.skipped)
        let windows = stride(from: 0, to: report.resultCount, by: window).map {
            $0..<min($0 + window, report.resultCount)
        }
        for form in [report, whole] {
            let rules = LinkTestRuleTable(form)
            let json = windows.flatMap { form.resultLines(level: 2, rules: rules, in: $0) }
            #expect(json.joined().elementsEqual(form.resultLines(level: 2, rules: rules).joined()))
            let renderJSON = form.resultLineWindows(level: 2, rules: rules)
            #expect(windows.flatMap(renderJSON).joined().elementsEqual(json.joined()))
            let againJSON = form.resultLineWindows(level: 2, rules: rules)
            var streamedJSON: [UInt8] = []
            for window in windows { streamedJSON += againJSON(window).joined() }
            #expect(streamedJSON.elementsEqual(json.joined()))
            let text = windows.flatMap { form.textLines(appColumn: true, in: $0) }
            #expect(text.joined().elementsEqual(form.textLines(appColumn: true).joined()))
            // One renderer for all the windows, as the CLI streams them:
            // what it made for a window serves the next ones.
            let render = form.textLineWindows(appColumn: true)
            #expect(windows.flatMap(render).joined().elementsEqual(text.joined()))
            // Each window's parts dropped before the next is rendered, as
            // the CLI writes them: the renderer writes into their buffers.
            let again = form.textLineWindows(appColumn: true)
            var streamed: [UInt8] = []
            for window in windows { streamed += again(window).joined() }
            #expect(streamed.elementsEqual(text.joined()))
        }
    }

    /// The results a library caller reads are made whole once and kept;
    /// setting them replaces the lean form, so renderers see the change.
    @Test func settingTheResultsReplacesTheLeanForm() throws {
        var random = TestRandom(seed: 0x1EA7_5E7)
        let entries = Self.entries(count: 64, random: &random)
        var report = try Self.run(entries)
        let records = try #require(report.records)
        #expect(records.results.count == entries.count)
        #expect(report.results.map(\.entry) == entries)
        report.results[0].message = "changed"
        report.results[0].failure = .excluded
        #expect(report.records == nil)
        #expect(report.results[0].message == "changed")
        let rules = LinkTestRuleTable(report)
        let first = String(decoding: report.resultLines(level: 0, rules: rules)[0], as: UTF8.self)
        #expect(first.contains(#""message":"changed""#))
        #expect(report.failedCount == report.results.filter { !$0.passed }.count)
    }

    static func lines(_ pieces: [[UInt8]]) -> [Substring] {
        String(decoding: pieces.joined(), as: UTF8.self).split(separator: "\n")
    }
}
