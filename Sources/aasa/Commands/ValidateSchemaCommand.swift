import ArgumentParser

/// The seed validator's `validate-schema`: `aasa validate F --schema S`
/// under its old command line.
struct ValidateSchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate-schema",
        abstract: "Seed-compatible form of `aasa validate --schema`.",
        discussion: """
            Same checks, output and exit status as `aasa validate F --schema S`: the file's size, \
            JSON syntax, the given JSON Schema, then the lints; each finding printed as \
            `file:line:column: severity: path: message [code]`.

            Example:
              aasa validate-schema --aasa-path apple-app-site-association \\
                --json-schema-path aasa.schema.json

            Exit status: 0 no errors, 1 errors found, 2 a file cannot be read or the schema is not usable.
            """
    )

    @Option(
        name: .customLong("aasa-path"),
        help: ArgumentHelp("The apple-app-site-association file.", valueName: "path")
    )
    var aasaPath: String

    @Option(
        name: .customLong("json-schema-path"),
        help: ArgumentHelp("The JSON Schema to validate against.", valueName: "path")
    )
    var jsonSchemaPath: String

    @OptionGroup var formatting: OutputOptions

    func run() throws {
        try run(output: .standard)
    }

    func run(output: CommandOutput) throws {
        try ValidateCommand.parse([aasaPath, "--schema", jsonSchemaPath, "--format", formatting.format.rawValue]).run(
            output: output
        )
    }
}
