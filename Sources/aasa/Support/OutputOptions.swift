import ArgumentParser

/// `--format text|json`, shared by the commands that report findings or
/// results as text for people or JSON for tools.
struct OutputOptions: ParsableArguments {
    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text
}
