import AASAChecks
import AASAKit
import ArgumentParser
import Foundation

/// `aasa check`: is a deployed host serving its association file right?
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Check that hosts serve apple-app-site-association and assetlinks.json the way Apple and Android require.",
        discussion: """
            Fetches https://<host>/.well-known/apple-app-site-association without following \
            redirects and reports, check by check with stable ids: connect, tls.trusted, \
            tls.expiry (warning within 14 days), http.redirect, http.status, http.content-type \
            (application/json; others warn), file.size (uncompressed, at most 131,072 bytes), \
            json.valid, aasa.schema, aasa.lints, legacy-path (/apple-app-site-association), and \
            app.listed when asked. Hosts are checked concurrently.

            Android: /.well-known/assetlinks.json is checked on every host (android.http: 200, \
            no redirect; android.type: application/json; android.size; android.valid: Google's \
            rules; android.includes: include statements followed over HTTPS, 200 only, no \
            redirects, at most 10 files 3 levels deep; android.delegates: the apps granted \
            handle_all_urls and get_login_creds, with their certificates). A host serving none \
            is a warning, a failure with --assetlinks, --package or --fingerprint, and for a \
            --from-dir host whose directory has an assetlinks.json.

            --base-url and --resolve only choose where to connect: the Host header, the TLS \
            server name (SNI) and the certificate check always use the host being checked, so a \
            staging server passes only if it would serve that host correctly.

            Examples:
              aasa check example.com www.example.com --bundle-id com.example.app --strict
              aasa check --from-dir aasa/ --base-url http://127.0.0.1:8080
              aasa check example.com --resolve example.com:443:10.0.0.5 --ca-file staging-ca.pem
              aasa check staging.example.com --ca-file staging-ca.pem --format json
              aasa check example.com --package com.example.app --fingerprint 14:6D:E9:…:C5

            Exit status: 0 no check failed, 1 a check failed (or warned, with --strict), \
            2 bad input.
            """
    )

    @Argument(help: ArgumentHelp("Hosts (example.com) or URLs (https://example.com:8443).", valueName: "host"))
    var hosts: [String] = []

    @Option(
        name: .customLong("app-id"),
        help: ArgumentHelp("Check this app ID is listed in applinks.", valueName: "id")
    )
    var appID: String?

    @Option(
        name: .customLong("bundle-id"),
        help: ArgumentHelp("Check an app with this bundle ID is listed.", valueName: "id")
    )
    var bundleID: String?

    @Option(
        name: .customLong("base-url"),
        help: ArgumentHelp(
            "Connect to this server instead of the host's own (its scheme, port and path prefix are used); Host, SNI and the certificate check stay the host's.",
            valueName: "url"
        )
    )
    var baseURL: String?

    @Flag(help: "Fail on warnings too (a wrong Content-Type, an expiring certificate, lint warnings): exit 1.")
    var strict = false

    @Option(
        name: .customLong("from-dir"),
        help: ArgumentHelp("Also check every host this `aasa serve` directory has a file for.", valueName: "dir")
    )
    var fromDir: String?

    @OptionGroup(title: "Android") var android: AndroidCheckOptions

    @OptionGroup var network: NetworkOptions

    @OptionGroup var formatting: OutputOptions

    func run() async throws {
        try await run(output: .standard)
    }

    /// Checks, prints through `output`, and throws the exit code when it is not 0.
    func run(output: CommandOutput) async throws {
        try output.report(
            await Result.catching { () async throws(InputError) in
                try await execute(notes: { output.errorLine($0) })
            }
        )
    }

    /// The rendered reports and the exit code; `notes` receives remarks on
    /// the input that are not findings.
    func execute(notes: (String) -> Void = { _ in }) async throws(InputError) -> (output: String, exitCode: Int32) {
        let (androidExpectations, androidNotes) = try android.expectations()
        androidNotes.forEach(notes)
        let targets = try targets()
        if let fromDir, let note = InputFiles.skippedWildcardsNote(directory: fromDir, command: "check") { notes(note) }
        let overrides = try network.resolveOverrides()
        try network.requireUsed(
            overrides,
            by: targets.filter { $0.connectTo == nil }.map { ($0.host, $0.effectivePort) },
            movedBy: ("--base-url", targets.filter { $0.viaBaseURL }.map(\.host))
        )
        let options = HostCheck.Options(
            app: try LinkTestInvocation.app(bundleID: bundleID, appID: appID),
            android: androidExpectations
        )
        // --base-url routes join the --resolve ones so the whole run shares one client.
        let routes = targets.compactMap { target in
            target.viaBaseURL
                ? target.connectTo.map { ResolveOverride(domain: target.host, port: target.effectivePort, address: $0) }
                : nil
        }
        let check = HostCheck(fetcher: try network.makeFetcher(resolve: overrides + routes), options: options)
        // A host whose --from-dir directory holds an assetlinks.json must serve it.
        var requiringOptions = options
        if options.android.presence == .optional { requiringOptions.android.presence = .required }
        let requiring = HostCheck(fetcher: check.fetcher, options: requiringOptions)
        let withAssetLinks = hostsWithAssetLinks()
        let total = targets.count
        let reports = await concurrentMap(
            targets,
            limit: network.concurrency,
            operation: { target in
                await (withAssetLinks.contains(target.host) ? requiring : check).run(target.connecting(per: overrides))
            },
            progress: { done, target in Terminal.progress("[\(done)/\(total)] \(target.host)") }
        )
        Terminal.endProgress()
        await check.fetcher.shutdown()
        let output = CheckOutput(reports: reports, strict: strict)
        return (formatting.format == .json ? output.json() : output.text(), output.exitCode)
    }

    /// The hosts of `--from-dir` that have an `assetlinks.json` there.
    private func hostsWithAssetLinks() -> Set<String> {
        guard let fromDir, let hosts = try? InputFiles.servedHosts(directory: fromDir) else { return [] }
        return Set(
            hosts.filter {
                FileManager.default.fileExists(atPath: SiteLayout.path(of: .assetLinks, host: $0, in: fromDir))
            }
        )
    }

    /// The hosts named and those of `--from-dir`, each once.
    private func targets() throws(InputError) -> [HostTarget] {
        var arguments = hosts
        if let fromDir { arguments += try InputFiles.servedHosts(directory: fromDir) }
        guard !arguments.isEmpty else { throw InputError("name at least one host, or --from-dir") }
        var targets: [HostTarget] = []
        for argument in arguments {
            do {
                let target = try HostTarget(argument, baseURL: baseURL)
                if !targets.contains(target) { targets.append(target) }
            } catch {
                throw InputError(error.description)
            }
        }
        return targets
    }
}
