import AASAChecks
import ArgumentParser

/// `aasa cdn-diff`: has Apple's CDN picked up the change?
struct CDNDiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cdn-diff",
        abstract: "Compare a domain's file on its origin with the copy on Apple's CDN.",
        discussion: """
            Devices read the file from Apple's CDN \
            (https://app-site-association.cdn-apple.com/a/v1/<domain>), which refreshes within \
            about 24 hours and cannot be purged. The two copies are compared as JSON (key order \
            and whitespace ignored: the CDN re-serialises) and differences are listed by path. \
            When the CDN has no copy, its status and Apple's own explanation are shown \
            (Apple-Failure-Reason, Apple-Failure-Details, Apple-From, Apple-Try-Direct, cache headers).

            Examples:
              aasa cdn-diff example.com www.example.com
              aasa cdn-diff example.com --origin-base http://127.0.0.1:8080 \\
                --cdn-base http://127.0.0.1:9090/a/v1/

            Exit status (the worst domain wins): 0 in sync, 1 differs, 2 CDN error, 3 origin error.
            """
    )

    @Argument(help: ArgumentHelp("Domains to compare.", valueName: "domain"))
    var domains: [String] = []

    @OptionGroup var endpoints: CDNEndpointOptions

    @Option(
        name: .customLong("from-dir"),
        help: ArgumentHelp("Also compare every host of this `aasa serve` directory.", valueName: "dir")
    )
    var fromDir: String?

    @OptionGroup var network: NetworkOptions

    @OptionGroup var formatting: OutputOptions

    func run() async throws {
        try await run(output: .standard)
    }

    /// Compares, prints through `output`, and throws the exit code when it is not 0.
    func run(output: CommandOutput) async throws {
        try await invocation.run(output: output)
    }

    var invocation: CDNDiffInvocation {
        CDNDiffInvocation(
            domains: domains,
            originBase: endpoints.originBase,
            cdnBase: endpoints.cdnBase,
            fromDir: fromDir,
            network: network,
            format: formatting.format
        )
    }
}
