import AASAKit

extension LinkTestOutput {
    /// JUnit XML: one `<testsuite>` per host whose file was used (URLs that
    /// could not be parsed go under the run's subject), and the warnings as
    /// test cases of their own: failures when the run is strict, skipped
    /// otherwise, so the file agrees with the exit code.
    func junit() -> String {
        var groups: [(name: String, results: [LinkTestResult])] = []
        for result in report.results {
            let name = result.site ?? subject
            if let index = groups.firstIndex(where: { $0.name == name }) {
                groups[index].results.append(result)
            } else {
                groups.append((name, [result]))
            }
        }
        var suites = groups.map { group in suite(named: group.name, group.results) }
        if !report.warnings.isEmpty { suites.append(warningSuite()) }
        let tests = suites.reduce(0) { $0 + $1.tests }
        let failures = suites.reduce(0) { $0 + $1.failures }
        let errors = suites.reduce(0) { $0 + $1.errors }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml +=
            #"<testsuites name="aasa test-links" tests="\#(tests)" failures="\#(failures)" errors="\#(errors)">"#
            + "\n"
        xml += suites.map(\.xml).joined()
        xml += "</testsuites>"
        return xml
    }

    private struct Suite {
        var tests = 0
        var failures = 0
        var errors = 0
        var xml = ""
    }

    private func suite(named name: String, _ results: [LinkTestResult]) -> Suite {
        var suite = Suite(tests: results.count)
        var cases = ""
        for result in results {
            let app = result.app.map { " [\($0)]" } ?? ""
            let name = Self.escape("\(result.entry.url) expect \(result.entry.expectation.rawValue)\(app)")
            let open = #"    <testcase classname="\#(Self.escape(result.entry.file ?? subject))" name="\#(name)""#
            guard let failure = result.failure else {
                cases += open + "/>\n"
                continue
            }
            let element = failure.isError ? "error" : "failure"
            if failure.isError { suite.errors += 1 } else { suite.failures += 1 }
            cases += open + ">\n"
            cases += #"      <\#(element) type="\#(failure.rawValue)" message="\#(Self.escape(result.summary))">"#
            cases += Self.escape(([result.message] + result.notes).joined(separator: "\n"))
            cases += "</\(element)>\n"
            cases += "    </testcase>\n"
        }
        suite.xml = header(name, suite) + cases + "  </testsuite>\n"
        return suite
    }

    private func warningSuite() -> Suite {
        var suite = Suite(tests: report.warnings.count)
        var cases = ""
        for warning in report.warnings {
            let name = Self.escape("\(warning.code) \(warning.path)")
            cases += #"    <testcase classname="\#(Self.escape(warning.file ?? subject))" name="\#(name)">"# + "\n"
            if strict {
                suite.failures += 1
                cases += #"      <failure type="\#(warning.code)" message="\#(Self.escape(warning.message))"/>"#
            } else {
                cases += #"      <skipped message="\#(Self.escape("warning: " + warning.message))"/>"#
            }
            cases += "\n    </testcase>\n"
        }
        suite.xml = header("warnings", suite) + cases + "  </testsuite>\n"
        return suite
    }

    private func header(_ name: String, _ suite: Suite) -> String {
        let title = Self.escape("aasa test-links \(name)")
        return
            #"  <testsuite name="\#(title)" tests="\#(suite.tests)" failures="\#(suite.failures)" errors="\#(suite.errors)">"#
            + "\n"
    }

    static func escape(_ text: String) -> String {
        // Most texts (URLs, file names, messages) hold nothing to escape: a
        // scan of their bytes, where going character by character was half
        // of a 100,000-URL report.
        guard text.utf8.contains(where: needsEscape) else { return text }
        // Byte by byte, whatever the text: the five special characters and
        // the control characters are ASCII, and in UTF-8 an ASCII byte is
        // never part of another character's bytes. Going by `Character`
        // instead wrote `&` raw when a combining mark followed it (`&` +
        // U+0301 is one character, not `&`): malformed XML.
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): escaped += "&amp;".utf8
            case UInt8(ascii: "<"): escaped += "&lt;".utf8
            case UInt8(ascii: ">"): escaped += "&gt;".utf8
            case UInt8(ascii: "\""): escaped += "&quot;".utf8
            case UInt8(ascii: "'"): escaped += "&apos;".utf8
            case 0x09, 0x0A, 0x0D: escaped.append(byte)
            // XML 1.0 cannot carry other control characters at all, even as references.
            case 0..<0x20: escaped += "\u{FFFD}".utf8
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// Whether `byte` is one that ``escape(_:)`` replaces, or a control
    /// character (tabs and line breaks too, which it keeps as they are).
    private static func needsEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case 0..<0x20, UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"):
            true
        default:
            false
        }
    }
}
