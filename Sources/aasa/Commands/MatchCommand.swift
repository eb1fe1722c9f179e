import AASAKit
import ArgumentParser

/// `aasa match`: which rule of a file decides a URL, for each app.
struct MatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Show what iOS (or, with --package, Android) does with a URL, and which rule decides.",
        discussion: """
            The URL is encoded the way a URL parser encodes what a person types \
            (https://example.com/fr#cartes-épargne becomes …#cartes-%C3%A9pargne) and then \
            evaluated like `swcutil verify`: the first rule whose keys all match decides, \
            an exclusion blocks the link. Every "did not match" says why: the nearest rules and \
            which of their keys fail, another host, or an http:// URL (iOS opens apps for https \
            links only, whatever the rules say).

            Examples:
              aasa match 'https://example.com/buy/42' --file aasa/example.com/apple-app-site-association
              aasa match 'https://example.com/buy/42' --dir aasa --bundle-id com.example.app
              aasa match 'https://example.com/help?article=7' --file f.json --app-id ABCDE12345.com.example.app --format json

            With --package, the host's assetlinks.json (--file, or <dir>/<host>/assetlinks.json) \
            decides instead, by Android 15+ dynamic App Link rules: in order, the first match wins, \
            "exclude" blocks; "?" constrains only the parameters it names. When the package has no \
            usable rules (none written, or malformed), Android falls back to the app's intent filters, \
            and the output says so.

              aasa match 'https://example.com/buy/42' --dir aasa --package com.example.app

            JSON: {"url", "domain", "results": [{"appID", "decision", "rule", "reason", "opensApp", \
            "why", "explanation"}]}; "opensApp" is what a script should test; "why" is null when the \
            app opens, else blocked, no-rule-matched, host-mismatch or http-scheme.

            With --package, JSON is {"url", "domain", "platform": "android", "results": [{"package", \
            "decision", "rule", "reason", "opensApp", "why"}]}, "why" one of blocked, \
            no-rule-matched, intent-filters or not-verified (Google rejects the file, another host).

            A list: `-` as the URL reads URLs from standard input, one per line (blank lines \
            skipped), and decides them all at once, each file compiled once and the URLs matched \
            across the cores. With --format json it prints one compact object per URL and line \
            (JSON Lines), in input order, shaped as above without "explanation" (explaining a \
            miss probes every rule on its own; ask for one URL to see it). A line that cannot be \
            decided (not a URL, not UTF-8 text, no file for its host) prints {"url", "error"} in \
            its place and makes the exit status 2.

              aasa match - --dir aasa --bundle-id com.example.app --format json < urls.txt

            Exit status: 0 evaluated (whatever the decision), 2 bad input: the file is not JSON, \
            the URL cannot be parsed, or the app given is in no applinks.details of the file (the \
            package is granted no App Links).
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The URL, as a person would type it; - reads URLs from standard input, one per line.",
            valueName: "url"
        )
    )
    var url: String

    @Option(help: ArgumentHelp("The apple-app-site-association file.", valueName: "path"))
    var file: String?

    @Option(
        help: ArgumentHelp("A directory laid out for `aasa serve`: the file of the URL's host.", valueName: "dir")
    )
    var dir: String?

    @Option(help: ArgumentHelp("The host serving the file (default: the URL's host).", valueName: "host"))
    var domain: String?

    @Option(
        name: .customLong("app-id"),
        help: ArgumentHelp("Evaluate for this app ID only (TEAMID.bundle.id).", valueName: "id")
    )
    var appID: String?

    @Option(
        name: .customLong("bundle-id"),
        help: ArgumentHelp("Evaluate for the app IDs with this bundle ID (any team prefix).", valueName: "id")
    )
    var bundleID: String?

    @Option(
        help: ArgumentHelp(
            "Evaluate the host's assetlinks.json dynamic App Link rules (Android 15+) for this package.",
            valueName: "name"
        )
    )
    var package: String?

    @OptionGroup var formatting: OutputOptions

    func run() async throws {
        try run(output: .standard)
    }

    /// Evaluates and prints through `output`; bad input throws exit code 2.
    func run(
        output: CommandOutput,
        standardInput: () throws(InputError) -> [UInt8] = MatchList.readStandardInput
    ) throws {
        if url == "-" {
            guard package == nil else {
                output.errorLine(
                    "error: --package decides one URL at a time; a list on standard input (-) is for Apple apps"
                )
                throw ExitCode(2)
            }
            try runList(output: output, standardInput: standardInput)
            return
        }
        if let package {
            let evaluation: AndroidMatchEvaluation
            do {
                evaluation = try evaluateAndroid(package: package)
            } catch {
                output.errorLine("error: \(error.description)")
                throw ExitCode(2)
            }
            switch formatting.format {
            case .text: evaluation.textLines().forEach(output.line)
            case .json: output.line(evaluation.json().serialized(pretty: true))
            }
            return
        }
        let evaluation: MatchEvaluation
        do {
            evaluation = try evaluate()
        } catch {
            output.errorLine("error: \(error.description)")
            throw ExitCode(2)
        }
        switch formatting.format {
        case .text:
            evaluation.textLines().forEach(output.line)
        case .json:
            do {
                output.line(try evaluation.json().serialized(pretty: true))
            } catch {
                output.errorLine("error: the JSON written for \(url) does not parse (a defect of aasa): \(error)")
                throw ExitCode(2)
            }
        }
    }

    /// `aasa match -`: every line of standard input. The file is read
    /// first and compiled on a thread of its own while the list is read
    /// and cut into lines.
    private func runList(output: CommandOutput, standardInput: () throws(InputError) -> [UInt8]) throws {
        var list: MatchList
        let input: URLListInput
        do {
            list = MatchList(
                source: try MatchList.source(file: file, dir: dir),
                domain: domain,
                app: try LinkTestInvocation.app(bundleID: bundleID, appID: appID),
                format: formatting.format
            )
            list.startCompiling()
            input = URLListInput(bytes: try standardInput())
        } catch {
            output.errorLine("error: \(error.description)")
            throw ExitCode(2)
        }
        let run = list.run(input: input)
        if let render = run.render { try output.report(streaming: .success((render, { 0 }))) }
        run.errors.forEach(output.errorLine)
        // Freed at exit, not URL by URL before it.
        output.keepUntilExit(input)
        if let decided = run.decided { output.keepUntilExit(decided) }
        if run.exitCode != 0 { throw ExitCode(run.exitCode) }
    }

    func evaluate() throws(InputError) -> MatchEvaluation {
        let app = try LinkTestInvocation.app(bundleID: bundleID, appID: appID)
        let parsedURL: AASAURL
        do {
            parsedURL = try AASAURL(url)
        } catch {
            throw InputError("cannot evaluate \(url): \(error.description)")
        }
        let domain = (self.domain ?? parsedURL.host).lowercased()
        let site = try self.site(for: domain)
        let file: AASAFile
        switch site.content {
        case .unusable(let reason): throw InputError(reason)
        case .absent(let host):
            throw InputError("\(site.name): \(LinkTestSites.Site.noAssociationFile(host: host))")
        case .file(let usable): file = usable
        }
        guard file.json.objectValue != nil else {
            throw InputError("\(site.name): not an association file: the root is \(file.json.typeName), not an object")
        }
        let listed = file.appLinksAppIDs
        var appIDs = listed
        if let app {
            if let problem = UnknownApp(app: app, sources: [.run], files: [file]) {
                throw InputError(problem.description(namingRunApp: LinkTestInvocation.flag))
            }
            appIDs = app.matching(listed)
        }
        return MatchEvaluation(url: parsedURL, domain: domain, file: file, appIDs: appIDs)
    }

    private func site(for domain: String) throws(InputError) -> LinkTestSites.Site {
        switch (file, dir) {
        case (let file?, nil):
            return try InputFiles.linkTestSite(file)
        case (nil, let dir?):
            let sites = try InputFiles.linkTestSites(directory: dir)
            guard let (_, site) = sites.site(for: domain) else {
                throw InputError("\(dir): no file for \(domain) (hosts: \(sites.hostNames.joined(separator: ", ")))")
            }
            return site
        case (nil, nil):
            throw InputError("give the association file with --file, or a directory with --dir")
        case (_?, _?):
            throw InputError("give --file or --dir, not both")
        }
    }
}
