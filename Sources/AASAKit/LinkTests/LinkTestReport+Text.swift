/// The text of a report's results: one line per result, `PASS` or `FAIL`,
/// the URL as written, the app when the run covers several, and the
/// summary; a failed result's notes below it.
extension LinkTestReport {
    /// The apps the results are for (app IDs, or Android packages).
    public var apps: Set<String> {
        if let records { return records.apps }
        return Set(results.compactMap(\.app))
    }

    /// The result lines, rendered in chunks across the cores for a long list.
    /// `appColumn`: name each result's app (the run covers several).
    public func textLines(appColumn: Bool) -> [[UInt8]] {
        textLines(appColumn: appColumn, in: 0..<resultCount)
    }

    /// ``textLines(appColumn:)`` of the results in `window` only, so that a
    /// long report is rendered and written a window at a time.
    public func textLines(appColumn: Bool, in window: Range<Int>) -> [[UInt8]] {
        if let records { return records.textLines(appColumn: appColumn, in: window) }
        let results = results
        return ParallelBatch.mapRanges(count: window.count, parallel: true) { chunk in
            let range = (window.lowerBound + chunk.lowerBound)..<(window.lowerBound + chunk.upperBound)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(range.count * 256)
            for index in range {
                results[index].appendLine(to: &bytes, appColumn: appColumn)
            }
            return bytes
        }
    }
}

extension LinkTestResult {
    /// The result's line, and its notes when it failed.
    func appendLine(to bytes: inout [UInt8], appColumn: Bool) {
        let app = appColumn ? self.app.map { " [\($0)]" } ?? "" : ""
        bytes += "\(passed ? "PASS" : "FAIL")  \(entry.url)\(app): \(summary)\n".utf8
        for note in notes where !passed {
            bytes += "      note: \(note)\n".utf8
        }
    }
}

extension LinkTestRecords {
    /// ``LinkTestReport/textLines(appColumn:)`` from the lean form: each
    /// rule's ` by …` and each app's column made once, and what follows the
    /// URL on a line made once per chunk for each outcome (``LineTails``).
    func textLines(appColumn: Bool, in window: Range<Int>) -> [[UInt8]] {
        let byRule = sites.map { site in site.decided.map { $0.rule.map(LinkTestResult.byRule) ?? "" } }
        let appColumns = sites.map { site in site.appIDs.map { appColumn ? " [\($0)]" : "" } }
        return ParallelBatch.mapRanges(count: window.count, parallel: true) { chunk in
            let range = (window.lowerBound + chunk.lowerBound)..<(window.lowerBound + chunk.upperBound)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(range.count * 256)
            var tails = LineTails()
            items.withUnsafeBufferPointer { items in
                records.withUnsafeBufferPointer { records in
                    for index in range {
                        let record = records[index]
                        guard record.isLean else {
                            side[Int(record.side)].appendLine(to: &bytes, appColumn: appColumn)
                            continue
                        }
                        let entry = items.baseAddress! + index
                        let key = LineTails.Key(record, expectation: entry.pointee.entry.expectation)
                        // A lean record's verdict is told by its rule alone
                        // (the run keeps those told by a message whole); were
                        // it not, the whole result tells it.
                        let tail = tails.tail(of: key) {
                            LinkTestResult.summary(
                                failure: record.failure,
                                isHTTP: record.isHTTP,
                                decision: record.decision,
                                rule: record.rule < 0 ? "" : byRule[Int(record.site)][Int(record.rule)],
                                expectation: key.expectation
                            ).map { "\(appColumns[Int(record.site)][Int(record.app)]): \($0)\n" }
                        }
                        guard let tail else {
                            result(at: index).appendLine(to: &bytes, appColumn: appColumn)
                            continue
                        }
                        bytes += record.failure == nil ? LineTails.pass : LineTails.fail
                        entry.pointee.entry.written.withUTF8 { bytes.append(contentsOf: $0) }
                        tails.append(tail, to: &bytes)
                    }
                }
            }
            return bytes
        }
    }
}

/// What follows the URL on a lean result's text line (the app column, the
/// summary, the newline): the same few hundred texts (one per site, app,
/// rule, decision, expectation and failure) over a long list, each made
/// once per chunk and then copied whole, where each line built its summary
/// string anew.
private struct LineTails {
    struct Key: Hashable {
        var outcome: LinkTestRecord.OutcomeKey
        var isHTTP: Bool
        var expectation: LinkExpectations.Expectation { outcome.expectation }

        init(_ record: LinkTestRecord, expectation: LinkExpectations.Expectation) {
            outcome = LinkTestRecord.OutcomeKey(record, expectation: expectation)
            isHTTP = record.isHTTP
        }
    }

    static let pass = Array("PASS  ".utf8)
    static let fail = Array("FAIL  ".utf8)

    private var rendered: [UInt8] = []
    /// `nil` for a key whose line only the whole result can tell.
    private var spans: [Key: Range<Int>?] = [:]

    /// Where the tail of `key` lies, made with `render` the first time;
    /// `nil` when `render` has none for it.
    mutating func tail(of key: Key, render: () -> String?) -> Range<Int>? {
        if let known = spans[key] { return known }
        let span = render().map { text in
            let start = rendered.count
            rendered += text.utf8
            return start..<rendered.count
        }
        spans[key] = span
        return span
    }

    func append(_ span: Range<Int>, to bytes: inout [UInt8]) {
        rendered.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[span])) }
    }
}
