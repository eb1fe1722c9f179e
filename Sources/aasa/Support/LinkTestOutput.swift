import AASAKit
import ArgumentParser

/// `--format` of `aasa test-links`.
enum LinkTestFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text
    case json
    /// JUnit XML, for CI test dashboards.
    case junit
    /// GitHub Actions workflow annotations on the links file.
    case github
}

/// Renders a link-test report in each format.
struct LinkTestOutput {
    /// A report rendered part by part into `write`, in order, until `write`
    /// answers `false` (stdout failed: the rest would be dropped).
    typealias Render = (_ write: ([UInt8]) -> Bool) -> Void

    /// The run, under way or finished: the text report renders its
    /// results as they are made; every other part waits for its report.
    var run: LinkTestRun
    /// The expectations files, named in annotations and JUnit.
    var linksFiles: [String]
    /// Their bytes, to find the line of each URL for annotations.
    var linksTexts: [String: [UInt8]]
    /// What the run was for, shown in suite names: the domain, the file or
    /// the directory.
    var subject: String
    /// Whether warnings fail the run (and so show as failures).
    var strict: Bool

    /// The run's report (waits for the run to end).
    var report: LinkTestReport { run.report() }

    /// Results rendered and written per window: a window's parts are
    /// written before the next is rendered, so the pages of a long report
    /// are reused window after window instead of all 37 MB of a
    /// 100,000-URL report being faulted in fresh. Two chunks per core (of
    /// ``ParallelBatch``'s 2,048): a window twice as long was twice the
    /// buffers, each faulted in once.
    static let window = 8_192

    /// The report as UTF-8 text, handed to `write` part by part until it
    /// answers `false`.
    func render(_ format: LinkTestFormat, to write: ([UInt8]) -> Bool) {
        switch format {
        case .text: text(to: write)
        case .json: json(to: write)
        case .junit: _ = write(Array(junit().utf8))
        case .github: _ = write(Array(github().utf8))
        }
    }

    /// One line per result (and its notes when it failed), rendered in
    /// chunks across the cores for a long list, each window as soon as the
    /// run has matched it; then the warnings and the summary.
    func text(to write: ([UInt8]) -> Bool) {
        // The app is worth a column only when the run covers several.
        let apps = run.apps
        if apps.count == 1, let app = apps.first {
            guard write(Array("App ID \(app), links from \(linksFiles.joined(separator: ", "))\n".utf8)) else { return }
        }
        let buffers = WindowBuffers()
        let lines = run.textLineWindows(appColumn: apps.count > 1, buffers: buffers)
        guard writeWindows(count: run.resultCount, to: write, render: lines) else { return }
        let report = run.report()
        var tail: [String] = []
        if report.uncoveredRules?.isEmpty == true {
            tail.append("")
            tail.append("coverage: every rule of the tested apps decides at least one URL of the list")
        }
        tail.append("")
        tail.append(summaryLine)
        let warnings = report.warnings
        guard !warnings.isEmpty else {
            _ = write(Array(tail.joined(separator: "\n").utf8))
            return
        }
        // A blank line, then one line per warning, rendered across the
        // cores: a long list can repeat thousands of URLs.
        let parts = ParallelBatch.mapRanges(count: warnings.count, parallel: true) { range in
            warnings.withUnsafeBufferPointer { warnings in
                // Into the results' buffers, already faulted in: reserving
                // a line's worth beyond their capacity would move to fresh
                // pages (a line is some 200 bytes; a new buffer grows).
                var bytes = buffers.take(reserving: range.count * 128)
                for index in range {
                    bytes.append(UInt8(ascii: "\n"))
                    (warnings.baseAddress! + index).pointee.appendDescription(to: &bytes)
                }
                return bytes
            }
        }
        for part in parts {
            guard write(part) else { return }
        }
        _ = write(Array(tail.map { "\n" + $0 }.joined().utf8))
    }

    /// The report's summary, saying when warnings are what fails the run.
    var summaryLine: String {
        let failing = strict && report.failedCount == 0 && !report.warnings.isEmpty
        return report.summaryLine + (failing ? " (--strict: warnings fail the run)" : "")
    }

    /// Pretty-printed, except the rules and the results: one compact object
    /// per line, so that a list of 100,000 URLs renders and reads back
    /// quickly and each result can still be found with `grep`. Each rule
    /// that decided a result is written once, in `rules`; a result's `rule`
    /// is its index there.
    func json(to write: ([UInt8]) -> Bool) {
        let rules = LinkTestRuleTable(report)
        var members: [(String, JSONValue)] = [
            ("subject", .string(subject)),
            ("links", .array(linksFiles.map(JSONValue.string))),
            ("passed", .number(Double(report.passedCount))),
            ("failed", .number(Double(report.failedCount))),
            ("skipped", .number(Double(report.skipped.count))),
            ("strict", .bool(strict)),
            ("succeeded", .bool(report.succeeded(strict: strict))),
            ("rules", .array([])),
            ("results", .array([])),
            ("warnings", .array(report.warnings.map(\.json))),
        ]
        if let uncovered = report.uncoveredRules {
            let rules: [JSONValue] = uncovered.map { rule in
                [
                    "site": .string(rule.site),
                    "file": .string(rule.siteName),
                    "appIDs": .array(rule.appIDs.map(JSONValue.string)),
                    "path": .string(rule.rule.path.description),
                    "rule": rule.rule.written,
                ]
            }
            members.append(("uncoveredRules", .array(rules)))
        }
        // The results go out as rendered, window by window, never joined.
        var writer = JSONTextWriter()
        writer.raw("{")
        for (offset, (key, value)) in members.enumerated() {
            if offset > 0 { writer.raw(",") }
            writer.newline(1)
            writer.string(key)
            writer.raw(": ")
            if key == "rules", !rules.rules.isEmpty {
                writer.raw("[")
                for (index, rule) in rules.rules.enumerated() {
                    writer.newline(2)
                    writer.raw(rule)
                    if index < rules.rules.count - 1 { writer.raw(",") }
                }
                writer.newline(1)
                writer.raw("]")
                continue
            }
            guard key == "results", report.resultCount > 0 else {
                writer.value(value, pretty: true, indent: 1)
                continue
            }
            writer.raw("[")
            guard write(writer.bytes) else { return }
            guard
                writeWindows(
                    count: report.resultCount,
                    to: write,
                    render: report.resultLineWindows(level: 2, rules: rules)
                )
            else {
                return
            }
            writer = JSONTextWriter()
            writer.newline(1)
            writer.raw("]")
        }
        writer.newline(0)
        writer.raw("}")
        _ = write(writer.bytes)
    }

    /// Workflow-command message escaping.
    static func escapeData(_ text: String) -> String {
        text.replacing("%", with: "%25").replacing("\r", with: "%0D").replacing("\n", with: "%0A")
    }

    /// Workflow-command property escaping (`,` and `:` separate properties).
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacing(":", with: "%3A").replacing(",", with: "%2C")
    }
}

extension LinkTestOutput {
    /// The output of a finished report (the memberwise initialiser, taking
    /// the run, stays: it is declared out here).
    init(report: LinkTestReport, linksFiles: [String], linksTexts: [String: [UInt8]], subject: String, strict: Bool) {
        self.init(
            run: LinkTestRun(report: report),
            linksFiles: linksFiles,
            linksTexts: linksTexts,
            subject: subject,
            strict: strict
        )
    }
}
