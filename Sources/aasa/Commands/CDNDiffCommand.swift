import AASAChecks
import ArgumentParser

/// `aasa cdn-diff`: has Apple's CDN picked up the change?
struct CDNDiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cdn-diff",
        abstract: "Compare Apple's CDN copy of a domain's file with the repository's file or the live origin.",
        discussion: """
            Devices read the file from Apple's CDN \
            (https://app-site-association.cdn-apple.com/a/v1/<domain>), which refreshes within \
            about 24 hours and cannot be purged. With --from-dir or --file, the CDN copy is \
            compared with the local files and no origin is contacted; without them (or with \
            --origin) it is compared with the live origin. Copies are compared as JSON (key \
            order and whitespace ignored: the CDN re-serialises); arrays are aligned, so one \
            removed rule is one removal. The report shows how old the CDN copy is and the \
            earliest time Apple refetches it (Age, Cache-Control, Expires, Date). When the CDN \
            has no copy, its status and Apple's own explanation are shown (Apple-Failure-Reason, \
            Apple-Failure-Details, Apple-From, Apple-Try-Direct). The compared file is also \
            validated: a CDN in sync with an invalid file is not a pass.

            Examples:
              aasa cdn-diff --from-dir aasa --strict
              aasa cdn-diff example.com --file build/apple-app-site-association
              aasa cdn-diff example.com www.example.com
              aasa cdn-diff example.com --origin-base http://127.0.0.1:8080 \\
                --cdn-base http://127.0.0.1:9090/a/v1/

            Exit status: 0 every domain in sync and its file valid, 1 a difference, a CDN or \
            origin error, or an invalid file (with --strict, a warning too), 2 bad input.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "Domains to compare (with --from-dir: default every host of the directory).",
            valueName: "domain"
        )
    )
    var domains: [String] = []

    @OptionGroup var endpoints: CDNEndpointOptions

    @Option(
        name: .customLong("from-dir"),
        help: ArgumentHelp(
            "Compare with the files of this `aasa serve` directory (<dir>/<domain>/apple-app-site-association); no origin is contacted.",
            valueName: "dir"
        )
    )
    var fromDir: String?

    @Option(
        name: .customLong("file"),
        help: ArgumentHelp(
            "Compare the one domain named with this local file; no origin is contacted.",
            valueName: "path"
        )
    )
    var file: String?

    @Flag(
        name: .customLong("origin"),
        help: "Compare with the live origin even with --from-dir (which then only lists the domains)."
    )
    var origin = false

    @Flag(help: "Fail on warnings too (lint warnings in the compared file): exit 1.")
    var strict = false

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
            file: file,
            origin: origin,
            strict: strict,
            network: network,
            format: formatting.format
        )
    }
}
