import AASAKit
import ArgumentParser

/// `aasa test-links`: a regression list of URLs against association files.
struct TestLinksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-links",
        abstract: "Check that listed URLs open the app (iOS and Android), and others do not.",
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

            ("expect": matched, blocked, none or not-matched; a top-level "links" array holds such \
            objects.) An entry with "platform": "android" is judged instead by the dynamic App Link \
            rules (Android 15+) of the host's assetlinks.json, for its "package" or --package:

              {"url": "https://example.com/help", "expect": "blocked", "platform": "android"}

            Android entries fail when the rules cannot decide: no assetlinks.json, a file Google \
            rejects, a package it does not grant, or no usable dynamic rules (the app's intent \
            filters then decide, which aasa cannot see). The file must follow schema/links.schema.json: an unknown key, a wrong type or \
            an empty list is an error (exit 2), never a silently shorter list.

            With --dir, each URL is matched against the file of its own host (<dir>/<host>/…, or a \
            *.<domain> wildcard directory), so one links file covers a whole brand; a URL whose host \
            has no file fails. --domain restricts the run to one host's URLs (the others are skipped, \
            with a warning). http:// URLs never open an app: expecting one to fails.

            Failures say why: unhandled (no rule matched, with the nearest rules), excluded (an \
            exclusion matched first) or incorrectly handled (a rule matched that should not have), \
            with the rule that decided.

            --format json writes each rule that decided a result once, in "rules" (with the file it \
            is from); a result's "rule" is its index there.

            Warnings (a URL listed twice, an http:// URL expected not to open the app, URLs skipped \
            for another host, a bundle ID naming several apps, with --coverage every rule no URL \
            decides) fail the run under --strict.

            Example:
              aasa test-links --dir aasa --links aasa/example.com/links.json \\
                --bundle-id com.example.app --package com.example.app --strict --format github

            Exit status: 0 all passed, 1 a link failed (or a warning under --strict), 2 bad input.
            """
    )

    @Option(help: ArgumentHelp("The apple-app-site-association file.", valueName: "path"))
    var file: String?

    @Option(
        help: ArgumentHelp(
            "A directory laid out for `aasa serve` (<dir>/<host>/…): each URL uses its host's file.",
            valueName: "dir"
        )
    )
    var dir: String?

    @Option(
        help: ArgumentHelp(
            "Test only this host's URLs (with --file: the host serving the file; default: every URL).",
            valueName: "host"
        )
    )
    var domain: String?

    @Option(
        help: ArgumentHelp(
            "A links file (deep_linkable_urls / non_deep_linkable_urls / links); repeat for several.",
            valueName: "path"
        )
    )
    var links: [String] = []

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

    @Option(
        help: ArgumentHelp(
            "Test \"platform\": \"android\" entries for this Android package (default: the one the files grant).",
            valueName: "name"
        )
    )
    var package: String?

    @Option(help: "Output format: text, json, junit or github.")
    var format: LinkTestFormat = .text

    @Flag(help: "Every warning fails the run (exit 1).")
    var strict = false

    @Flag(help: "List the rules of the tested apps that no URL of the list decides (warnings).")
    var coverage = false

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
        let source: LinkTestInvocation.Source
        switch (file, dir) {
        case (let file?, nil): source = .file(file)
        case (nil, let dir?): source = .directory(dir)
        case (nil, nil): throw InputError("give the association file with --file, or a directory with --dir")
        case (_?, _?): throw InputError("give --file or --dir, not both")
        }
        guard !links.isEmpty else { throw InputError("give the links file with --links") }
        return LinkTestInvocation(
            source: source,
            linksPaths: links,
            domain: domain,
            app: try LinkTestInvocation.app(bundleID: bundleID, appID: appID),
            package: package,
            format: format,
            strict: strict,
            coverage: coverage
        )
    }
}
