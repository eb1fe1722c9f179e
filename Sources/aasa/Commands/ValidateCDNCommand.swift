import ArgumentParser

/// The seed validator's `validate-cdn`: `aasa cdn-diff` under its old command line.
struct ValidateCDNCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate-cdn",
        abstract: "Seed-compatible form of `aasa cdn-diff`.",
        discussion: """
            Same comparison, output and exit status as `aasa cdn-diff <domain>`.

            Example:
              aasa validate-cdn --domain example.com
            """
    )

    @Option(help: ArgumentHelp("The domain to compare (repeatable).", valueName: "domain"))
    var domain: [String]

    @OptionGroup var endpoints: CDNEndpointOptions

    @OptionGroup var network: NetworkOptions

    @OptionGroup var formatting: OutputOptions

    func run() async throws {
        try await run(output: .standard)
    }

    func run(output: CommandOutput) async throws {
        try await invocation.run(output: output)
    }

    var invocation: CDNDiffInvocation {
        CDNDiffInvocation(
            domains: domain,
            originBase: endpoints.originBase,
            cdnBase: endpoints.cdnBase,
            fromDir: nil,
            network: network,
            format: formatting.format
        )
    }
}
