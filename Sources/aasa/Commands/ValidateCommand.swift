import AASAChecks
import AASAKit
import ArgumentParser
import Foundation

/// `aasa validate`: check association files (and assetlinks.json) before
/// they are served.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate apple-app-site-association and assetlinks.json files.",
        discussion: """
            Checks each file's size (at most 131,072 bytes), JSON syntax, the JSON Schema and \
            the lints, which say what Apple's system will actually do with a file: rules that \
            can never decide, variables that make a rule never match, values of the wrong type \
            that the system silently ignores. A directory is searched for every \
            apple-app-site-association (the `aasa serve` layout, aasa/<host>/apple-app-site-association) \
            and assetlinks.json.

            Each finding is printed as `file:line:column: severity: path: message [code]`, then \
            a summary. --format github prints GitHub Actions annotations instead, --format sarif a \
            SARIF 2.1.0 log for code scanning, --format json the findings as JSON.

            Examples:
              aasa validate aasa/
              aasa validate aasa/ --strict --format github
              aasa validate aasa/ --format sarif > aasa.sarif
              aasa validate apple-app-site-association --schema my-stricter.schema.json
              aasa validate aasa/example.com/assetlinks.json --follow-includes

            An assetlinks.json `include` statement is reported as not followed unless \
            --follow-includes is given; then each included file is fetched as Google would (https \
            only, 200 only, no redirects, at most 10 files 3 levels deep, each URL once) and \
            validated, and the output says what each contributed.

            Exit status: 0 no errors (warnings allowed, unless --strict), 1 a file has errors (or \
            warnings, with --strict), 2 a path cannot be read or --schema is not a usable schema.
            """
    )

    @Argument(help: ArgumentHelp("Files or directories to validate.", valueName: "file-or-directory"))
    var paths: [String]

    @Option(
        help: ArgumentHelp(
            "Validate association files against this JSON Schema instead of the bundled one.",
            valueName: "path"
        )
    )
    var schema: String?

    @Flag(help: "Fail (exit 1) on warnings too, not only on errors.")
    var strict = false

    @Option(help: "Output format: text, json, github (workflow annotations) or sarif (SARIF 2.1.0).")
    var format: ValidationFormat = .text

    @Flag(
        name: .customLong("follow-includes"),
        help: "Fetch the files assetlinks.json include statements name, as Google would, and validate them too."
    )
    var followIncludes = false

    @OptionGroup(title: "Fetching includes (with --follow-includes)") var fetching: IncludeFetchOptions

    func run() async throws {
        if followIncludes {
            try await runFollowingIncludes(output: .standard)
        } else {
            try run(output: .standard)
        }
    }

    /// Validates local files only, prints through `output`, and throws the
    /// exit code when it is not 0.
    func run(output: CommandOutput) throws {
        guard !fetching.isUsed else {
            output.errorLine("error: --timeout, --insecure, --ca-file and --resolve apply only with --follow-includes")
            throw ExitCode(2)
        }
        let (validated, readFailures) = try validateFiles(output: output)
        let reports = validated.flatMap { report, assetLinksBytes in
            assetLinksBytes.map { [ValidationIncludes.notFollowed(report, bytes: $0)] } ?? [report]
        }
        try render(reports, readFailures: readFailures, output: output)
    }

    /// ``run(output:)`` with `--follow-includes`: includes are fetched
    /// through AASAChecks' fetcher with the fetch options.
    func runFollowingIncludes(output: CommandOutput) async throws {
        let resolver: AssetLinksIncludeResolver
        do {
            resolver = AssetLinksIncludeResolver(fetcher: try fetching.makeFetcher())
        } catch {
            output.errorLine("error: \(error.description)")
            throw ExitCode(2)
        }
        let (validated, readFailures) = try validateFiles(output: output)
        var reports: [ValidationReport] = []
        for (report, assetLinksBytes) in validated {
            guard let bytes = assetLinksBytes else {
                reports.append(report)
                continue
            }
            reports += await ValidationIncludes.followed(report, bytes: bytes, resolver: resolver)
        }
        await resolver.fetcher.shutdown()
        try render(reports, readFailures: readFailures, output: output)
    }

    /// The report of every file, in order, with the bytes of each
    /// `assetlinks.json` (whose includes are handled next); the files that
    /// could not be read.
    private func validateFiles(
        output: CommandOutput
    ) throws -> (reports: [(report: ValidationReport, assetLinksBytes: [UInt8]?)], readFailures: [InputError]) {
        let validator: AASAValidator
        do {
            validator = try makeValidator()
        } catch {
            output.errorLine("error: \(error.description)")
            throw ExitCode(2)
        }
        let (targets, problems, misnamed) = ValidationTarget.expand(paths)
        var readFailures = problems
        var reports: [(report: ValidationReport, assetLinksBytes: [UInt8]?)] = misnamed.map {
            (Self.misnamedReport($0), nil)
        }
        var contents: [String: [UInt8]] = [:]
        for target in targets {
            do {
                let bytes = try InputFiles.bytes(target.path, what: "file")
                contents[target.path] = bytes
                switch target.kind {
                case .appleAppSiteAssociation:
                    reports.append((validator.validate(bytes: bytes, file: target.path).locating(in: bytes), nil))
                case .assetLinks:
                    let report = AssetLinksValidator().validate(bytes: bytes, file: target.path).locating(in: bytes)
                    reports.append((report, bytes))
                }
            } catch {
                readFailures.append(error)
            }
        }
        let shared = CredentialSharingPass.adding(to: reports.map(\.report), contents: contents)
        return (zip(shared, reports).map { ($0, $1.assetLinksBytes) }, readFailures)
    }

    /// Prints the reports in the chosen format and throws the exit code.
    private func render(_ reports: [ValidationReport], readFailures: [InputError], output: CommandOutput) throws {
        for failure in readFailures {
            output.errorLine("error: \(failure.description)")
        }
        let exitCode: Int32 =
            !readFailures.isEmpty
            ? 2 : reports.contains(where: { $0.hasErrors || strict && $0.warningCount > 0 }) ? 1 : 0
        let summary = DiagnosticPrinter.summary(reports, strict: strict, unreadable: readFailures.count)
        switch format {
        case .text:
            for line in DiagnosticPrinter.lines(reports) { output.line(line) }
            output.line(summary)
        case .json:
            let json = DiagnosticPrinter.json(reports, readFailures: readFailures, strict: strict, exitCode: exitCode)
            output.line(json.serialized(pretty: true))
        case .github:
            for line in GitHubAnnotations.lines(reports) { output.line(line) }
            output.line(summary)
        case .sarif:
            let log = SARIFLog(reports: reports, readFailures: readFailures.map(\.description))
            output.line(log.json.serialized(pretty: true))
        }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }

    /// A file in a searched directory that no server serves under its name:
    /// a warning, since the host it sits in then has no file at all.
    static func misnamedReport(_ path: String) -> ValidationReport {
        let name = (path as NSString).lastPathComponent
        let served = ValidationTarget.servedName(nearlyMatching: name) ?? name
        // A difference in case alone is found on a case-insensitive file
        // system (macOS's default), not on the Linux hosts that serve files.
        let consequence =
            name.lowercased() == served
            ? "not validated, and not served from a case-sensitive file system (Linux)"
            : "not validated and not served"
        let warning = Diagnostic.warning(
            "file.misnamed",
            at: .root,
            "\(consequence): the file must be named exactly \"\(served)\", not \"\(name)\"; rename it"
        )
        return ValidationReport(file: path, diagnostics: [warning])
    }

    private func makeValidator() throws(InputError) -> AASAValidator {
        guard let schema else { return AASAValidator() }
        let bytes = try InputFiles.bytes(schema, what: "schema")
        do {
            return AASAValidator(schema: try JSONSchema(bytes: bytes))
        } catch {
            throw InputError("\(schema): not a usable JSON Schema: \(error.description)")
        }
    }
}
