import Foundation

/// The JSON of a run's lean results, written from the records and the
/// run's tables: each site, app ID and rule message is escaped once, and a
/// result's line copies those bytes, where a ``LinkTestResult`` was read
/// field by field (a retain and a release of each) and escaped again per URL.
extension LinkTestRecords {
    /// What every line of a site shares, rendered once.
    private struct SiteFragments {
        /// `"site"`, as JSON.
        var key: [UInt8]
        /// Each app ID, as JSON.
        var appIDs: [[UInt8]]
        /// Each rule's message (`"Pattern \"/x/*\" matched."`), as JSON.
        var messages: [[UInt8]]

        init(_ site: LinkTestRunner.LoadedSite) {
            key = Self.json(site.key)
            appIDs = site.appIDs.map(Self.json)
            messages = site.decided.map { Self.json($0.reason) }
        }

        static func json(_ text: String) -> [UInt8] {
            var writer = JSONTextWriter()
            writer.string(text)
            return writer.bytes
        }
    }

    /// ``LinkTestReport/resultLines(level:rules:in:)`` from the lean form,
    /// for windows rendered one after another: what every line of a site
    /// shares made once, and each outcome's middle (``LineMiddles``) made
    /// once and kept from window to window.
    final class JSONRenderer: Sendable {
        private let records: LinkTestRecords
        private let level: Int
        private let rules: LinkTestRuleTable
        private let fragments: [SiteFragments]
        private let noRule: [UInt8]
        private let linePrefix: [UInt8]
        /// The middles of the chunks rendered so far: a chunk takes one (or
        /// starts one) and gives it back when done.
        private let spare = SparePool<LineMiddles>()
        /// The parts of the windows before: a later window's chunks write
        /// into them once the caller has dropped them.
        private let buffers = WindowBuffers()

        init(_ records: LinkTestRecords, level: Int, rules: LinkTestRuleTable) {
            self.records = records
            self.level = level
            self.rules = rules
            fragments = records.sites.map(SiteFragments.init)
            noRule = SiteFragments.json(AASAMatcher.noRuleMatched)
            var prefix = JSONTextWriter()
            prefix.newline(level)
            prefix.raw("{\"url\":")
            linePrefix = prefix.bytes
        }

        func lines(in window: Range<Int>) -> [[UInt8]] {
            let parts = ParallelBatch.mapRanges(count: window.count, parallel: true) { chunk in
                let range = (window.lowerBound + chunk.lowerBound)..<(window.lowerBound + chunk.upperBound)
                var middles = spare.take(or: LineMiddles.init)
                // Reserved generously: pages never written are never touched.
                var writer = JSONTextWriter(reusing: buffers.take(reserving: range.count * 512))
                lines(in: range, middles: &middles, to: &writer)
                spare.giveBack(middles)
                return writer.bytes
            }
            buffers.keep(parts)
            return parts
        }

        private func lines(in range: Range<Int>, middles: inout LineMiddles, to writer: inout JSONTextWriter) {
            var lastFile: String?
            var lastFileJSON: [UInt8] = []
            let side = records.side
            let last = records.count - 1
            records.items.withUnsafeBufferPointer { items in
                records.table.withRecords { records in
                    for index in range {
                        let record = records[index]
                        guard record.isLean else {
                            writer.newline(level)
                            var reference = LinkTestResult.RuleReference.table(rules.index(ofResult: index))
                            side[Int(record.side)].write(to: &writer, rule: &reference)
                            if index < last { writer.raw(",") }
                            continue
                        }
                        let entry = items.baseAddress! + index
                        writer.raw(linePrefix)
                        entry.pointee.entry.written.withUTF8 { writer.string(utf8: $0) }
                        let key = LineMiddles.Key(
                            record,
                            expectation: entry.pointee.entry.expectation,
                            rule: rules.index(ofResult: index)
                        )
                        middles.write(key, to: &writer) { writer in
                            let site = fragments[Int(record.site)]
                            writer.raw(",\"expect\":\"")
                            writer.unescaped(key.expectation.rawValue)
                            writer.raw("\",\"passed\":")
                            writer.bool(record.failure == nil)
                            writer.raw(",\"site\":")
                            writer.raw(site.key)
                            writer.raw(",\"appID\":")
                            writer.raw(site.appIDs[Int(record.app)])
                            writer.raw(",\"decision\":\"")
                            writer.unescaped(record.decision.rawValue)
                            writer.raw("\"")
                            if let failure = record.failure {
                                writer.raw(",\"failure\":\"")
                                writer.unescaped(failure.rawValue)
                                writer.raw("\"")
                            }
                            writer.raw(",\"message\":")
                            writer.raw(record.rule < 0 ? noRule : site.messages[Int(record.rule)])
                            if let rule = key.table {
                                writer.raw(",\"rule\":")
                                writer.integer(rule)
                            }
                        }
                        writer.raw(",\"entry\":")
                        writer.entryPlace(entry.pointee.entry.place)
                        if let file = entry.pointee.entry.file {
                            // A list's entries name one file or a few.
                            if file != lastFile {
                                lastFile = file
                                lastFileJSON = SiteFragments.json(file)
                            }
                            writer.raw(",\"linksFile\":")
                            writer.raw(lastFileJSON)
                        }
                        writer.raw(index < last ? "}," : "}")
                    }
                }
            }
        }
    }
}

/// The middle of a lean result's line, from `"expect"` to `"rule"`: the
/// same few hundred texts (one per site, app, rule, expectation and
/// failure) over a long list, each rendered once and then copied whole,
/// where each line wrote its dozen members one by one.
private struct LineMiddles {
    struct Key: Hashable {
        var outcome: LinkTestRecord.OutcomeKey
        /// The rule's place in the report's table; `nil` when none decided.
        var table: Int?
        var expectation: LinkExpectations.Expectation { outcome.expectation }

        init(_ record: LinkTestRecord, expectation: LinkExpectations.Expectation, rule table: Int?) {
            outcome = LinkTestRecord.OutcomeKey(record, expectation: expectation)
            self.table = table
        }
    }

    private var rendered: [UInt8] = []
    private var spans: [Key: Range<Int>] = [:]
    /// The last key written at each rule's slot and its middle: a rule
    /// nearly always decides its URLs the same way, so most lines find
    /// theirs by one comparison, without hashing the key.
    private var recent = [(key: Key, span: Range<Int>)?](repeating: nil, count: LinkTestRecord.OutcomeKey.slots)

    /// Writes the middle of `key`, rendering it with `render` the first time.
    mutating func write(_ key: Key, to writer: inout JSONTextWriter, render: (inout JSONTextWriter) -> Void) {
        let slot = key.outcome.slot
        let span: Range<Int>
        if let known = recent[slot], known.key == key {
            span = known.span
        } else {
            if let known = spans[key] {
                span = known
            } else {
                var fresh = JSONTextWriter()
                render(&fresh)
                span = rendered.count..<(rendered.count + fresh.bytes.count)
                rendered += fresh.bytes
                spans[key] = span
            }
            recent[slot] = (key, span)
        }
        rendered.withUnsafeBufferPointer { writer.raw(UnsafeBufferPointer(rebasing: $0[span])) }
    }
}
