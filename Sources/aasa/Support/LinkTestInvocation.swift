import AASAKit
import ArgumentParser
import Foundation

/// One `test-links` run, shared by `aasa test-links` and the seed's
/// `aasa validate-universal-links`.
struct LinkTestInvocation {
    /// Where the association files come from.
    enum Source {
        /// One file: the file of `domain`, or of every host when there is none.
        case file(String)
        /// A directory laid out for `aasa serve`: each URL's host has its own.
        case directory(String)
    }

    var source: Source
    var linksPaths: [String]
    /// Restricts the run to this host's URLs.
    var domain: String?
    var app: LinkTestApp?
    /// The Android package for `"platform": "android"` entries that name none.
    var package: String?
    var format: LinkTestFormat
    /// Warnings fail the run.
    var strict = false
    /// List (and warn about) the rules no URL exercises.
    var coverage = false

    /// The report, rendered part by part into the function given to
    /// `render`, and the exit code once it is: 0 all passed, 1 a failure
    /// (or, when strict, a warning).
    ///
    /// The run goes on while the report is rendered: the text report
    /// writes each window of results as soon as it is matched.
    ///
    /// What the run is made of is handed to `keep`, once made: the
    /// process's output keeps it until exit instead of freeing it.
    func execute(
        keep: (any Sendable) -> Void = { _ in }
    ) throws(InputError) -> (render: LinkTestOutput.Render, exitCode: () -> Int32) {
        let paths = Self.distinct(linksPaths)
        // The association file read and compiled on one core while the
        // links files are read and scanned on the other: neither needs the
        // other, and each ran alone on one core of two.
        let (ahead, lists) = Self.both(
            { () throws(InputError) in try self.sitesCompiledAhead() },
            { () throws(InputError) in try self.linksFiles(paths) }
        )
        let (sites, compiled) = try ahead.get()
        let (entries, texts) = try lists.get()
        let run: LinkTestRun
        do {
            var runner = LinkTestRunner(sites: sites, domain: domain, coverage: coverage)
            runner.compiledAhead = compiled
            run = try runner.start(LinkExpectations(entries: entries), app: app, package: package)
        } catch {
            throw InputError(error.description(namingRunApp: Self.flag))
        }
        keep(entries)
        keep(run)
        let output = LinkTestOutput(
            run: run,
            linksFiles: paths,
            linksTexts: texts,
            subject: domain ?? sourcePath,
            strict: strict
        )
        let (format, strict) = (format, strict)
        return ({ output.render(format, to: $0) }, { run.report().succeeded(strict: strict) ? 0 : 1 })
    }

    /// Runs, prints through `output`, and throws the exit code when it is not 0.
    func run(output: CommandOutput) throws {
        try output.report(streaming: Result { () throws(InputError) in try execute(keep: output.keepUntilExit) })
    }

    private var sourcePath: String {
        switch source {
        case .file(let path), .directory(let path): path
        }
    }

    /// The entries of the links files, in order, and the text of each
    /// file when annotations need it (to find a URL's line).
    private func linksFiles(
        _ paths: [String]
    ) throws(InputError) -> (entries: [LinkExpectations.Entry], texts: [String: [UInt8]]) {
        var entries: [LinkExpectations.Entry] = []
        var texts: [String: [UInt8]] = [:]
        for path in paths {
            let file: LinksFileAhead.Read
            if let ahead = LinksFileAhead.take(path) { file = try ahead.get() } else { file = try Self.linksFile(path) }
            // The usual single list is taken whole, not copied entry by entry.
            if entries.isEmpty { entries = file.entries } else { entries += file.entries }
            if format == .github { texts[path] = file.bytes }
        }
        return (entries, texts)
    }

    /// A links file's entries and bytes.
    static func linksFile(_ path: String) throws(InputError) -> LinksFileAhead.Read {
        let bytes = try InputFiles.bytes(path, what: "links file")
        do {
            return (try LinkExpectations(bytes: bytes, file: path).entries, bytes)
        } catch {
            let problems = error.problems.map { "  \($0)" }.joined(separator: "\n")
            throw InputError("\(path) is not a valid links file (schema/links.schema.json):\n\(problems)")
        }
    }

    /// The sites, and with `--file` its one file compiled (a directory's
    /// files are compiled by the run, which compiles only the hosts the
    /// list names).
    private func sitesCompiledAhead() throws(InputError) -> (LinkTestSites, LinkTestCompiledFiles?) {
        let sites = try self.sites()
        guard case .file = source, let file = sites.site(for: domain ?? "")?.site.file else { return (sites, nil) }
        return (sites, LinkTestCompiledFiles([file]))
    }

    /// `first` and `second` run at once, on two cores when there are two;
    /// returns when both are done.
    private static func both<A: Sendable, B: Sendable>(
        _ first: @Sendable () throws(InputError) -> A,
        _ second: @Sendable () throws(InputError) -> B
    ) -> (Result<A, InputError>, Result<B, InputError>) {
        let results = BothResults<A, B>()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            // Each iteration writes its own field, and `concurrentPerform`
            // returns only after both: no lock is needed.
            if index == 0 { results.first = Result(catching: first) } else { results.second = Result(catching: second) }
        }
        guard let first = results.first, let second = results.second else {
            preconditionFailure("concurrentPerform returned before its iterations ran")
        }
        return (first, second)
    }

    private func sites() throws(InputError) -> LinkTestSites {
        switch source {
        case .file(let path):
            let site = try InputFiles.linkTestSite(path)
            return domain.map { LinkTestSites(byHost: [$0: site]) } ?? .everyHost(site)
        case .directory(let path):
            let sites = try InputFiles.linkTestSites(directory: path)
            if let domain, sites.site(for: domain) == nil {
                throw InputError(
                    "\(path): no file for \(domain) (hosts: \(sites.hostNames.joined(separator: ", ")))"
                )
            }
            return sites
        }
    }

    /// The same links file named twice (a symlinked alias directory holds
    /// its target's) is read once.
    private static func distinct(_ paths: [String]) -> [String] {
        var seen = Set<String>()
        return paths.filter { seen.insert(URL(fileURLWithPath: $0).resolvingSymlinksInPath().path).inserted }
    }

    /// How the app given for the run is named in messages: by its flag.
    static func flag(_ app: LinkTestApp) -> String {
        app.isBundleID ? "--bundle-id \(app)" : "--app-id \(app)"
    }

    /// `--bundle-id` / `--app-id`, at most one.
    static func app(bundleID: String?, appID: String?) throws(InputError) -> LinkTestApp? {
        switch (bundleID, appID) {
        case (nil, nil): return nil
        case (let bundleID?, nil): return .bundleID(bundleID)
        case (nil, let appID?): return .appID(appID)
        case (_?, _?): throw InputError("give --bundle-id or --app-id, not both")
        }
    }
}

/// The two results of ``LinkTestInvocation/both(_:_:)``: each written by
/// one iteration of `concurrentPerform`, read after it returns.
private final class BothResults<A: Sendable, B: Sendable>: @unchecked Sendable {
    var first: Result<A, InputError>?
    var second: Result<B, InputError>?
}
