import ArgumentParser

/// `aasa`: host, validate and test Apple Universal Links association files.
@main
struct AASA: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa",
        abstract: "Host, validate and test apple-app-site-association (Universal Links) files.",
        discussion: """
            Exit codes: 0 success, 1 findings (invalid file, failed link, differing CDN copy), \
            2 bad input (unreadable file, not JSON, bad arguments).
            """,
        subcommands: [
            ServeCommand.self,
            ValidateCommand.self,
            MatchCommand.self,
            TestLinksCommand.self,
            CheckCommand.self,
            CDNDiffCommand.self,
            DevCertCommand.self,
            // The seed validator's command lines, so existing CI keeps working.
            ValidateUniversalLinksCommand.self,
            ValidateSchemaCommand.self,
            ValidateCDNCommand.self,
        ]
    )
}
