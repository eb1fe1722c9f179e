import AASAKit
import ArgumentParser

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

            Each finding is printed as `file: path: severity: message [code]`, then a summary.

            Examples:
              aasa validate aasa/
              aasa validate aasa/example.com/apple-app-site-association --format json
              aasa validate apple-app-site-association --schema my-stricter.schema.json

            Exit status: 0 no errors (warnings allowed), 1 a file has errors, 2 a path cannot be \
            read or --schema is not a usable schema.
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

    @OptionGroup var formatting: OutputOptions

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
        let (targets, problems) = ValidationTarget.expand(paths)
        var readFailures = problems
        var reports: [ValidationReport] = []
        for target in targets {
            do {
                let bytes = try InputFiles.bytes(target.path, what: "file")
                switch target.kind {
                case .appleAppSiteAssociation: reports.append(validator.validate(bytes: bytes, file: target.path))
                case .assetLinks: reports.append(AssetLinksValidator().validate(bytes: bytes, file: target.path))
                }
            } catch {
                readFailures.append(error)
            }
        }
        for failure in readFailures {
            output.errorLine("error: \(failure.description)")
        }
        switch formatting.format {
        case .text:
            for line in DiagnosticPrinter.lines(reports) { output.line(line) }
            output.line(DiagnosticPrinter.summary(reports))
        case .json:
            output.line(DiagnosticPrinter.json(reports).serialized(pretty: true))
        }
        if !readFailures.isEmpty { throw ExitCode(2) }
        if reports.contains(where: \.hasErrors) { throw ExitCode(1) }
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
