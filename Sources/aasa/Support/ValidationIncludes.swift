import AASAChecks
import AASAKit

/// What `aasa validate` says about the `include` statements of an
/// `assetlinks.json`: by default that they were not followed (validate reads
/// local files), with `--follow-includes` what each one contributed, each
/// included file's own findings as a report of its own, and an error for an
/// include Google would drop.
enum ValidationIncludes {
    /// The report with an info finding on every include: not fetched.
    static func notFollowed(_ report: ValidationReport, bytes: [UInt8]) -> ValidationReport {
        guard let json = report.json else { return report }
        let notes = AssetLinksFile(json: json).statements.compactMap { statement -> Diagnostic? in
            guard let include = statement.include else { return nil }
            return .info(
                "assetlinks.include-not-followed",
                at: statement.path.appending("include"),
                "\(include) was not fetched, so its statements are not validated; pass --follow-includes to follow it"
            )
        }
        return adding(notes, to: report).locating(in: bytes)
    }

    /// `report` with `findings` added, in path order like the others.
    private static func adding(_ findings: [Diagnostic], to report: ValidationReport) -> ValidationReport {
        guard !findings.isEmpty else { return report }
        return ValidationReport(
            file: report.file,
            diagnostics: report.diagnostics + findings,
            json: report.json,
            document: report.document
        )
    }

    /// The report with a finding on every include, followed by the reports
    /// of the included files that were fetched.
    static func followed(
        _ report: ValidationReport,
        bytes: [UInt8],
        resolver: AssetLinksIncludeResolver
    ) async -> [ValidationReport] {
        guard let json = report.json, !report.hasErrors, let file = report.file else { return [report] }
        let includes = await resolver.resolve(AssetLinksFile(json: json), at: file)
        var reports = [report]
        var findings: [[Diagnostic]] = [[]]
        var index = [file: 0]
        for included in includes {
            if let parent = index[included.includedFrom] {
                findings[parent].append(diagnostic(for: included))
            }
            if let own = included.report, index[included.url] == nil {
                index[included.url] = reports.count
                reports.append(own)
                findings.append([])
            }
        }
        // The included files' own findings were placed when they were
        // fetched; the new ones point at an include statement, placed here
        // in the root file, or at the including file's root for the others.
        return zip(reports, findings).enumerated().map { offset, pair in
            let report = adding(pair.1, to: pair.0)
            return offset == 0 ? report.locating(in: bytes) : report
        }
    }

    /// Errors for an include whose statements are lost, a warning for a
    /// loop, info for what a followed include contributed.
    static func diagnostic(for included: IncludedFile) -> Diagnostic {
        let path = included.path
        guard let problem = included.problem else {
            return .info("assetlinks.include-followed", at: path, "\(included.url): \(included.summary)")
        }
        guard problem.losesStatements else {
            return .warning("assetlinks.include-loop", at: path, "\(included.url): \(problem.message)")
        }
        return .error(
            "assetlinks.include-failed",
            at: path,
            "\(included.url): \(problem.message); Google drops the statements it would contribute"
        )
    }
}
