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
    /// rule's ` by …` and each app's column made once, not per URL.
    func textLines(appColumn: Bool, in window: Range<Int>) -> [[UInt8]] {
        let byRule = sites.map { site in site.decided.map { $0.rule.map(LinkTestResult.byRule) ?? "" } }
        let appColumns = sites.map { site in site.appIDs.map { appColumn ? Array(" [\($0)]".utf8) : [] } }
        return ParallelBatch.mapRanges(count: window.count, parallel: true) { chunk in
            let range = (window.lowerBound + chunk.lowerBound)..<(window.lowerBound + chunk.upperBound)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(range.count * 256)
            items.withUnsafeBufferPointer { items in
                records.withUnsafeBufferPointer { records in
                    for index in range {
                        let record = records[index]
                        guard record.isLean else {
                            side[Int(record.side)].appendLine(to: &bytes, appColumn: appColumn)
                            continue
                        }
                        let entry = items.baseAddress! + index
                        // A lean record's verdict is told by its rule alone
                        // (the run keeps those told by a message whole); were
                        // it not, the whole result tells it.
                        guard
                            let summary = LinkTestResult.summary(
                                failure: record.failure,
                                isHTTP: record.isHTTP,
                                decision: record.decision,
                                rule: record.rule < 0 ? "" : byRule[Int(record.site)][Int(record.rule)],
                                expectation: entry.pointee.entry.expectation
                            )
                        else {
                            result(at: index).appendLine(to: &bytes, appColumn: appColumn)
                            continue
                        }
                        bytes += (record.failure == nil ? "PASS  " : "FAIL  ").utf8
                        entry.pointee.entry.written.withUTF8 { bytes.append(contentsOf: $0) }
                        bytes += appColumns[Int(record.site)][Int(record.app)]
                        bytes += ": ".utf8
                        bytes += summary.utf8
                        bytes.append(UInt8(ascii: "\n"))
                    }
                }
            }
            return bytes
        }
    }
}
