import AASAKit

/// Renders validation reports for people (compiler-style lines and a
/// summary) and for machines (`--format json`).
enum DiagnosticPrinter {
    /// One `file:line:column: severity: path: message [code]` line per
    /// finding (`file: path: severity: …` for one without a position).
    static func lines(_ reports: [ValidationReport]) -> [String] {
        reports.flatMap { report in report.diagnostics.map(\.description) }
    }

    /// `3 files, 1 error, 2 warnings` (`, 1 note` when there are info
    /// findings); under `--strict`, warnings are said to fail the run; paths
    /// that could not be read are counted, so the line never reads clean
    /// when something was not validated.
    static func summary(_ reports: [ValidationReport], strict: Bool = false, unreadable: Int = 0) -> String {
        let errors = reports.reduce(0) { $0 + $1.errorCount }
        let warnings = reports.reduce(0) { $0 + $1.warningCount }
        let notes = reports.reduce(0) { $0 + $1.infoCount }
        var parts = [count(reports.count, "file"), count(errors, "error"), count(warnings, "warning")]
        if notes > 0 { parts.append(count(notes, "note")) }
        var text = parts.joined(separator: ", ")
        if strict && warnings > 0 { text += " (--strict: warnings fail)" }
        if unreadable > 0 { text += "; \(count(unreadable, "path")) could not be read" }
        return text
    }

    /// `{"files":[{"path":…,"diagnostics":[{"severity","code","path","message","line","column"}]}],
    /// "errors":[{"path"?,"message"}], "strict", "succeeded", "exitCode"}`: the paths that could not
    /// be read are in `errors`, so a reader of the JSON alone never sees a clean run that was not one.
    static func json(
        _ reports: [ValidationReport],
        readFailures: [InputError] = [],
        strict: Bool = false,
        exitCode: Int32 = 0
    ) -> JSONValue {
        let files = reports.map { report -> JSONValue in
            [
                "path": .string(report.file ?? ""),
                "diagnostics": .array(report.diagnostics.map(json)),
            ]
        }
        let errors = readFailures.map { failure -> JSONValue in
            var object = JSONObject()
            if let path = failure.path { object["path"] = .string(path) }
            object["message"] = .string(failure.message)
            return .object(object)
        }
        return [
            "files": .array(files),
            "errors": .array(errors),
            "strict": .bool(strict),
            "succeeded": .bool(exitCode == 0),
            "exitCode": .number(Double(exitCode)),
        ]
    }

    /// A finding without its file: the file is the enclosing entry's path.
    /// `line` and `column` are there when the finding has a position.
    static func json(_ diagnostic: Diagnostic) -> JSONValue {
        diagnostic.inFile(nil).json
    }

    /// `1 error`, `2 errors`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
