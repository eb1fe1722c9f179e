import AASAKit
import ArgumentParser

/// `aasa test-links`: a regression list of URLs against an association file.
struct TestLinksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-links",
        abstract: "Check that listed URLs open the app, and others do not.",
        discussion: """
            The links file lists URLs as people write them (unencoded; they are encoded like \
            a URL parser would before matching):

              {
                "deep_linkable_urls": [
                  "https://example.com/menu/42",
                  "https://example.com/fr#cartes-épargne"
                ],
                "non_deep_linkable_urls": ["https://example.com/account"]
              }

            A deep-linkable URL passes when a rule that is not an exclusion matches it; a \
            non-deep-linkable URL passes when an exclusion blocks it or no rule matches. An entry \
            may also be an object naming the exact decision and the app:

              {"url": "https://example.com/help", "expect": "blocked",
               "bundleID": "com.example.app"}

            ("expect": matched, blocked, none or not-matched; a top-level "links" array holds such objects.)

            Failures say why: unhandled (no rule matched), excluded (an exclusion matched first) or \
            incorrectly handled (a rule matched that should not have), with the rule that decided.

            Example:
              aasa test-links --file aasa/example.com/apple-app-site-association \\
                --links links.json --bundle-id com.example.app --format github

            Exit status: 0 all passed, 1 a link failed, 2 bad input.
            """
    )

    @Option(help: ArgumentHelp("The apple-app-site-association file.", valueName: "path"))
    var file: String?

    @Option(
        help: ArgumentHelp("A directory laid out for `aasa serve` (<dir>/<host>/…); needs --domain.", valueName: "dir")
    )
    var dir: String?

    @Option(help: ArgumentHelp("The host serving the file (default: each URL's own host).", valueName: "host"))
    var domain: String?

    @Option(help: ArgumentHelp("The links file (deep_linkable_urls / non_deep_linkable_urls).", valueName: "path"))
    var links: String

    @Option(
        name: .customLong("bundle-id"),
        help: ArgumentHelp("Test for this bundle ID (any team prefix).", valueName: "id")
    )
    var bundleID: String?

    @Option(
        name: .customLong("app-id"),
        help: ArgumentHelp("Test for this full app ID (TEAMID.bundle.id).", valueName: "id")
    )
    var appID: String?

    @Option(help: "Output format: text, json, junit or github.")
    var format: LinkTestFormat = .text

    func run() throws {
        try run(output: .standard)
    }

    /// Runs, prints through `output`, and throws the exit code when it is not 0.
    func run(output: CommandOutput) throws {
        let invocation: LinkTestInvocation
        do {
            invocation = try self.invocation()
        } catch {
            output.errorLine("error: \(error.description)")
            throw ExitCode(2)
        }
        try invocation.run(output: output)
    }

    func invocation() throws(InputError) -> LinkTestInvocation {
        let path: String
        switch (file, dir) {
        case (let file?, nil):
            path = file
        case (nil, let dir?):
            guard let domain else { throw InputError("--dir needs --domain to pick the host's file") }
            path = InputFiles.servedFile(directory: dir, host: domain)
        case (nil, nil):
            throw InputError("give the association file with --file, or --dir with --domain")
        case (_?, _?):
            throw InputError("give --file or --dir, not both")
        }
        return LinkTestInvocation(
            aasaPath: path,
            linksPath: links,
            domain: domain,
            app: try LinkTestInvocation.app(bundleID: bundleID, appID: appID),
            format: format
        )
    }
}
