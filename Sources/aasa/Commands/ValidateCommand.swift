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

    func run() async throws {
        try run(output: .standard)
    }

    /// Validates, prints through `output`, and throws the exit code when it
    /// is not 0.
    func run(output: CommandOutput) throws {
        let validator: AASAValidator
        do {
            validator = try makeValidator()
        } catch {
            output.errorLine("error: \(error.description)")
            throw ExitCode(2)
        }
        let (targets, problems, misnamed) = ValidationTarget.expand(paths)
        var readFailures = problems
        var reports = misnamed.map(Self.misnamedReport)
        for target in targets {
            do {
                let bytes = try InputFiles.bytes(target.path, what: "file")
                switch target.kind {
                case .appleAppSiteAssociation:
                    reports.append(validator.validate(bytes: bytes, file: target.path).locating(in: bytes))
                case .assetLinks:
                    reports.append(AssetLinksValidator().validate(bytes: bytes, file: target.path).locating(in: bytes))
                }
            } catch {
                readFailures.append(error)
            }
        }
        for failure in readFailures {
            output.errorLine("error: \(failure.description)")
        }
        switch format {
        case .text:
            for line in DiagnosticPrinter.lines(reports) { output.line(line) }
            output.line(DiagnosticPrinter.summary(reports, strict: strict))
        case .json:
            output.line(DiagnosticPrinter.json(reports).serialized(pretty: true))
        case .github:
            for line in GitHubAnnotations.lines(reports) { output.line(line) }
            output.line(DiagnosticPrinter.summary(reports, strict: strict))
        case .sarif:
            let log = SARIFLog(reports: reports, readFailures: readFailures.map(\.description))
            output.line(log.json.serialized(pretty: true))
        }
        if !readFailures.isEmpty { throw ExitCode(2) }
        if reports.contains(where: { $0.hasErrors || strict && $0.warningCount > 0 }) { throw ExitCode(1) }
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
