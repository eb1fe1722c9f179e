/// The JSON of results, written straight to bytes: a 100,000-URL list
/// renders in a few milliseconds instead of building 100,000 trees of
/// `JSONValue` and serialising them.
extension LinkTestResult {
    /// How a result names the rule that decided it.
    enum RuleReference {
        /// The rule's whole JSON, in the result (``LinkTestResult/json``).
        case inline(RuleFragments)
        /// The rule's place in the report's ``LinkTestRuleTable``; `nil`
        /// when no rule decided.
        case table(Int?)
    }

    /// Writes the result as one compact JSON object.
    func write(to writer: inout JSONTextWriter, rule reference: inout RuleReference) {
        writer.raw("{\"url\":")
        entry.written.withUTF8 { writer.string(utf8: $0) }
        // The names of cases are plain ASCII: written without an escape scan.
        writer.raw(",\"expect\":\"")
        writer.unescaped(entry.expectation.rawValue)
        writer.raw("\",\"passed\":")
        writer.bool(passed)
        if let site { writer.member("site", site) }
        if entry.platform != .apple { writer.member("platform", entry.platform.rawValue) }
        if let appID { writer.member("appID", appID) }
        if let package { writer.member("package", package) }
        if let decision {
            writer.raw(",\"decision\":\"")
            writer.unescaped(decision.rawValue)
            writer.raw("\"")
        }
        if let failure { writer.member("failure", failure.rawValue) }
        writer.member("message", message)
        switch reference {
        case .table(let index?):
            writer.raw(",\"rule\":")
            writer.integer(index)
        case .table(nil):
            break
        case .inline(var fragments):
            if let dynamicRule {
                writer.raw(",\"rule\":")
                writer.value(dynamicRule.json)
            } else if let rule {
                writer.raw(",\"rule\":")
                writer.raw(fragments.fragment(for: rule, site: site ?? ""))
                reference = .inline(fragments)
            }
        }
        if !notes.isEmpty {
            writer.raw(",\"notes\":")
            writer.value(.array(notes.map(JSONValue.string)))
        }
        if let explanation {
            writer.raw(",\"explanation\":")
            writer.value(explanation.json)
        }
        writer.raw(",\"entry\":")
        writer.entryPlace(entry.place)
        if let file = entry.file { writer.member("linksFile", file) }
        writer.raw("}")
    }
}

extension DynamicRule {
    /// `{"index", "path", "rule"}`: how a link test names the Android rule
    /// that decided.
    var json: JSONValue {
        ["index": .number(Double(index)), "path": .string(path.description), "rule": written]
    }
}

extension LinkTestReport {
    /// The results as the elements of a JSON array, one compact object per
    /// line, each line indented by `level` levels of two spaces, each
    /// naming its rule by its index in `rules`: in pieces, rendered across
    /// the cores for a long list, to be written in order.
    public func resultLines(level: Int, rules: LinkTestRuleTable) -> [[UInt8]] {
        resultLines(level: level, rules: rules, in: 0..<resultCount)
    }

    /// ``resultLines(level:rules:)`` of the results in `window` only, so
    /// that a long report is rendered and written a window at a time.
    public func resultLines(level: Int, rules: LinkTestRuleTable, in window: Range<Int>) -> [[UInt8]] {
        resultLineWindows(level: level, rules: rules)(window)
    }

    /// ``resultLines(level:rules:in:)`` for the windows it is called with,
    /// one after another: what it renders once per outcome of a lean
    /// report serves every later window too.
    public func resultLineWindows(level: Int, rules: LinkTestRuleTable) -> @Sendable (Range<Int>) -> [[UInt8]] {
        // A table of other results would name wrong rules, or none.
        precondition(rules.resultCount == resultCount, "the rule table was built from other results")
        if let records { return LinkTestRecords.JSONRenderer(records, level: level, rules: rules).lines(in:) }
        let results = results
        return { window in Self.resultLines(of: results, level: level, rules: rules, in: window) }
    }

    private static func resultLines(
        of results: [LinkTestResult],
        level: Int,
        rules: LinkTestRuleTable,
        in window: Range<Int>
    ) -> [[UInt8]] {
        ParallelBatch.mapRanges(count: window.count, parallel: true) { chunk in
            let range = (window.lowerBound + chunk.lowerBound)..<(window.lowerBound + chunk.upperBound)
            // Reserved generously: pages never written are never touched.
            var writer = JSONTextWriter(capacity: range.count * 512)
            // Through the buffer: each result is written where it lies, where
            // the array's getter handed the writer a copy (a retain and a
            // release of every field, on strings both cores share).
            results.withUnsafeBufferPointer { results in
                for index in range {
                    writer.newline(level)
                    var reference = LinkTestResult.RuleReference.table(rules.index(ofResult: index))
                    results[index].write(to: &writer, rule: &reference)
                    if index < results.count - 1 { writer.raw(",") }
                }
            }
            return writer.bytes
        }
    }
}

/// The JSON of each deciding rule, written once: in a long list most URLs
/// are decided by a few hundred rules.
public struct RuleFragments: Sendable {
    private struct Key: Hashable {
        var site: String
        var detail: Int
        var rule: Int
        var viaDefaults: Bool
    }

    private var written: [Key: [UInt8]] = [:]

    public init() {}

    /// The compact JSON of ``MatchedRule/json``; `site` names the file the
    /// rule is from (rules of different files never share a fragment).
    public mutating func fragment(for rule: MatchedRule, site: String) -> [UInt8] {
        let key = Key(site: site, detail: rule.detailIndex, rule: rule.ruleIndex, viaDefaults: rule.viaDefaults)
        if let fragment = written[key] { return fragment }
        var writer = JSONTextWriter()
        writer.value(rule.json)
        written[key] = writer.bytes
        return writer.bytes
    }
}

extension JSONTextWriter {
    /// `"deep_linkable_urls[12]"`, the path's description, written without
    /// building it for the usual `list[index]`: a long list prints one per
    /// result.
    mutating func entryPlace(_ place: LinkEntryPlace) {
        switch place {
        case .listed(let key, let index):
            // The keys of a links file's lists: identifiers, which a path prints bare.
            raw("\"")
            unescaped(key.rawValue)
            raw("[")
            integer(index)
            raw("]\"")
        case .other(let path):
            string(path.description)
        }
    }

    /// `,"name":"value"`.
    public mutating func member(_ name: StaticString, _ value: String) {
        raw(",\"")
        raw(name)
        raw("\":")
        string(value)
    }
}
