import AASAKit
import ArgumentParser

/// The seed validator's `validate-universal-links`: `aasa test-links` under
/// its old command line, so existing CI keeps working.
struct ValidateUniversalLinksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate-universal-links",
        abstract: "Seed-compatible form of `aasa test-links`.",
        discussion: """
            Same checks and output as `aasa test-links --file F --links L --bundle-id B --domain D`.

            Example:
              aasa validate-universal-links --bundle-id com.example.app \\
                --domain example.com --aasa-path apple-app-site-association \\
                --universal-links-path links.json
            """
    )

    @Option(name: .customLong("bundle-id"), help: ArgumentHelp("The app's bundle ID.", valueName: "id"))
    var bundleID: String

    @Option(help: ArgumentHelp("The host serving the file.", valueName: "host"))
    var domain: String

    @Option(
        name: .customLong("aasa-path"),
        help: ArgumentHelp("The apple-app-site-association file.", valueName: "path")
    )
    var aasaPath: String

    @Option(
        name: .customLong("universal-links-path"),
        help: ArgumentHelp("The links file (deep_linkable_urls / non_deep_linkable_urls).", valueName: "path")
    )
    var universalLinksPath: String

    @Option(help: "Output format: text, json, junit or github.")
    var format: LinkTestFormat = .text

    func run() throws {
        try run(output: .standard)
    }

    func run(output: CommandOutput) throws {
        try LinkTestInvocation(
            source: .file(aasaPath),
            linksPaths: [universalLinksPath],
            domain: domain,
            app: .bundleID(bundleID),
            format: format
        ).run(output: output)
    }
}
