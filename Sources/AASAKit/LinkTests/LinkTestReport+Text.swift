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
        textLineWindows(appColumn: appColumn)(window)
    }

    /// ``textLines(appColumn:in:)`` for the windows it is called with, one
    /// after another: what it renders once per outcome of a lean report
    /// serves every later window too, where each call of
    /// ``textLines(appColumn:in:)`` starts afresh.
    public func textLineWindows(appColumn: Bool) -> @Sendable (Range<Int>) -> [[UInt8]] {
        textLineWindows(appColumn: appColumn, buffers: WindowBuffers())
    }

    /// ``textLineWindows(appColumn:)`` of a lean report rendered into
    /// `buffers`, which then serve what the caller renders after the results.
    package func textLineWindows(appColumn: Bool, buffers: WindowBuffers) -> @Sendable (Range<Int>) -> [[UInt8]] {
        if let records {
            return LinkTestRecords.TextRenderer(records, appColumn: appColumn, buffers: buffers).lines(in:)
        }
        let results = results
        return { window in Self.textLines(of: results, appColumn: appColumn, in: window) }
    }

    private static func textLines(of results: [LinkTestResult], appColumn: Bool, in window: Range<Int>) -> [[UInt8]] {
        ParallelBatch.mapRanges(count: window.count, parallel: true) { chunk in
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
