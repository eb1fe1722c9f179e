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
    var report: LinkTestReport
    /// The expectations file, named in annotations and JUnit.
    var linksFile: String
    /// Its text, to find the line of each URL for annotations.
    var linksText: String
    /// What the run was for, shown in the suite name: the domain or the file.
    var subject: String

    func render(_ format: LinkTestFormat) -> String {
        switch format {
        case .text: text()
        case .json: json()
        case .junit: junit()
        case .github: github()
        }
    }

    func text() -> String {
        var lines: [String] = []
        // The app is worth a column only when the run covers several.
        let apps = Set(report.results.compactMap(\.appID))
        if apps.count == 1, let app = apps.first {
            lines.append("App ID \(app), links from \(linksFile)")
        }
        for result in report.results {
            let app = apps.count > 1 ? result.appID.map { " [\($0)]" } ?? "" : ""
            lines.append("\(result.passed ? "PASS" : "FAIL")  \(result.entry.url)\(app): \(result.summary)")
            for note in result.notes where !result.passed {
                lines.append("      note: \(note)")
            }
        }
        lines.append("")
        lines.append(report.summaryLine)
        return lines.joined(separator: "\n")
    }

    func json() -> String {
        let object: JSONValue = [
            "subject": .string(subject),
            "links": .string(linksFile),
            "passed": .number(Double(report.passedCount)),
            "failed": .number(Double(report.failedCount)),
            "results": .array(report.results.map(\.json)),
        ]
        return object.serialized(pretty: true)
    }

    func junit() -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let errors = report.results.count { $0.failure == .invalidURL || $0.failure == .appNotListed }
        let failures = report.failedCount - errors
        let suite = Self.escape("aasa test-links \(subject)")
        xml +=
            #"<testsuites name="aasa test-links" tests="\#(report.results.count)" failures="\#(failures)" errors="\#(errors)">"#
            + "\n"
        xml +=
            #"  <testsuite name="\#(suite)" tests="\#(report.results.count)" failures="\#(failures)" errors="\#(errors)">"#
            + "\n"
        for result in report.results {
            let app = result.appID.map { " [\($0)]" } ?? ""
            let name = Self.escape("\(result.entry.url) expect \(result.entry.expectation.rawValue)\(app)")
            let open = #"    <testcase classname="\#(Self.escape(linksFile))" name="\#(name)""#
            guard let failure = result.failure else {
                xml += open + "/>\n"
                continue
            }
            let element = failure == .invalidURL || failure == .appNotListed ? "error" : "failure"
            xml += open + ">\n"
            xml += #"      <\#(element) type="\#(failure.rawValue)" message="\#(Self.escape(result.summary))">"#
            xml += Self.escape(([result.message] + result.notes).joined(separator: "\n"))
            xml += "</\(element)>\n"
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>"
        return xml
    }

    /// One `::error` per failure, on the line of the links file that holds
    /// the URL, then the summary line.
    func github() -> String {
        var lines: [String] = []
        for result in report.failures {
            var properties = "file=\(Self.escapeProperty(linksFile))"
            if let line = line(of: result.entry.url) { properties += ",line=\(line)" }
            let title = "\(result.failure?.title ?? "failed"): \(result.entry.url)"
            properties += ",title=\(Self.escapeProperty(title))"
            lines.append("::error \(properties)::\(Self.escapeData(result.summary))")
        }
        lines.append(report.summaryLine)
        return lines.joined(separator: "\n")
    }

    private func line(of url: String) -> Int? {
        let needle = JSONValue.string(url).serialized()
        for (index, line) in linksText.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where line.contains(needle) {
            return index + 1
        }
        return nil
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default: escaped.append(character)
            }
        }
        return escaped
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
