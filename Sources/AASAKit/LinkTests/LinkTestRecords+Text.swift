import Foundation

extension LinkTestRecords {
    /// ``LinkTestReport/textLines(appColumn:in:)`` from the lean form, for
    /// windows rendered one after another: each rule's ` by …` and each
    /// app's column made once, and what follows the URL on a line made once
    /// for each outcome (``LineTails``) and kept from window to window.
    final class TextRenderer: @unchecked Sendable {
        private let records: LinkTestRecords
        private let appColumn: Bool
        private let byRule: [[String]]
        private let appColumns: [[String]]
        private let buffers: WindowBuffers
        /// The tails of the chunks rendered so far: a chunk takes one (or
        /// starts one) and gives it back when done, so a later chunk finds
        /// the outcomes already made.
        private let spare = SparePool<LineTails>()

        init(_ records: LinkTestRecords, appColumn: Bool, buffers: WindowBuffers) {
            self.records = records
            self.appColumn = appColumn
            self.buffers = buffers
            byRule = records.sites.map { site in site.decided.map { $0.rule.map(LinkTestResult.byRule) ?? "" } }
            appColumns = records.sites.map { site in site.appIDs.map { appColumn ? " [\($0)]" : "" } }
        }

        func lines(in window: Range<Int>) -> [[UInt8]] {
            let parts = ParallelBatch.mapRanges(count: window.count, parallel: true) { chunk in
                let range = (window.lowerBound + chunk.lowerBound)..<(window.lowerBound + chunk.upperBound)
                var tails = spare.take(or: LineTails.init)
                var bytes = buffers.take(reserving: range.count * 256)
                lines(in: range, tails: &tails, to: &bytes)
                spare.giveBack(tails)
                return bytes
            }
            buffers.keep(parts)
            return parts
        }

        private func lines(in range: Range<Int>, tails: inout LineTails, to bytes: inout [UInt8]) {
            let side = records.side
            records.items.withUnsafeBufferPointer { items in
                records.table.withRecords { records in
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
                            self.records.result(at: index).appendLine(to: &bytes, appColumn: appColumn)
                            continue
                        }
                        tails.append(record.failure == nil ? LineTails.pass : LineTails.fail, to: &bytes)
                        Self.appendURL(of: entry, to: &bytes)
                        tails.append(tail, to: &bytes)
                    }
                }
            }
        }

        /// Appends the item's URL as written, read where it lies: bound
        /// through the item's pointer, a span's source was retained and
        /// released per line, from every core. Not inlined, like
        /// ``append(_:to:)``: a borrow holds only across such a call.
        @inline(never)
        private static func appendURL(of item: UnsafePointer<LinkTestPlan.Item>, to bytes: inout [UInt8]) {
            item.withItemInPlace { append($0.item.entry.written, to: &bytes) }
        }

        /// Not inlined: inlined, the URL was copied again.
        @inline(never)
        private static func append(_ written: borrowing WrittenURL, to bytes: inout [UInt8]) {
            switch written {
            case .string(let text):
                text.withLentUTF8 { bytes.append(contentsOf: $0) }
            case .bytes(let source, let start, let count):
                source.withBytes(start: start, count: count) { bytes.append(contentsOf: $0) }
            }
        }
    }
}

/// What follows the URL on a lean result's text line (the app column, the
/// summary, the newline): the same few hundred texts (one per site, app,
/// rule, decision, expectation and failure) over a long list, each made
/// once and then copied whole, where each line built its summary string
/// anew.
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

    /// Where a line's first six bytes lie in ``rendered``.
    static let pass = 0..<6
    static let fail = 6..<12

    private var rendered = Array("PASS  FAIL  ".utf8)
    /// `nil` for a key whose line only the whole result can tell.
    private var spans: [Key: Range<Int>?] = [:]
    /// The last key looked up at each slot (``LinkTestRecord/OutcomeKey/slot``) and its tail: a rule
    /// nearly always decides its URLs the same way, so most lines are told
    /// by one comparison, where hashing the key cost more than copying
    /// the line.
    private var recent = [(key: Key, span: Range<Int>?)?](
        repeating: nil,
        count: LinkTestRecord.OutcomeKey.slots
    )

    /// Where the tail of `key` lies, made with `render` the first time;
    /// `nil` when `render` has none for it.
    mutating func tail(of key: Key, render: () -> String?) -> Range<Int>? {
        let slot = key.outcome.slot
        if let known = recent[slot], known.key == key { return known.span }
        let span: Range<Int>?
        if let known = spans[key] {
            span = known
        } else {
            span = render().map { text in
                let start = rendered.count
                rendered += text.utf8
                return start..<rendered.count
            }
            spans[key] = span
        }
        recent[slot] = (key, span)
        return span
    }

    /// Mutating though it only reads: as a non-mutating call on the
    /// renderer's `inout` tails, the tails were copied for it (a retain and
    /// a release of each of their three buffers per line).
    mutating func append(_ span: Range<Int>, to bytes: inout [UInt8]) {
        rendered.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[span])) }
    }
}
