import AASAKit
import ArgumentParser
import Foundation

/// `aasa match -`: a list of URLs, one per line on standard input, each
/// decided as `aasa match URL` decides it, at the speed of `aasa test-links`
/// (each file compiled once, the URLs parsed and matched across the cores).
///
/// JSON prints one compact object per URL and line (JSON Lines), in input
/// order, with the single-URL shape minus `explanation`: explaining a miss
/// probes every rule on its own, thousands of times the cost of the
/// decision, so a list leaves it out (`why` still says no-rule-matched; run
/// `aasa match URL` on that URL for the nearest rules). A line that cannot
/// be decided (not a URL, no file for its host, an app the file does not
/// list) prints `{"url", "error"}` in its place, the others are still
/// decided, and the exit status is 2.
struct MatchList: Sendable {
    /// Where each URL's file comes from.
    enum Source: Sendable {
        /// One file, for every URL.
        case file(LinkTestSites.Site)
        /// A directory laid out for `aasa serve`: the file of each URL's host.
        case directory(path: String, sites: LinkTestSites)
    }

    var source: Source
    /// The host serving the file (default: each URL's host).
    var domain: String?
    var app: LinkTestApp?
    var format: OutputFormat

    /// `--file` or `--dir`, read once for the whole list.
    static func source(file: String?, dir: String?) throws(InputError) -> Source {
        switch (file, dir) {
        case (let file?, nil): return .file(try InputFiles.linkTestSite(file))
        case (nil, let dir?): return .directory(path: dir, sites: try InputFiles.linkTestSites(directory: dir))
        case (nil, nil): throw InputError("give the association file with --file, or a directory with --dir")
        case (_?, _?): throw InputError("give --file or --dir, not both")
        }
    }

    /// All of standard input, as bytes.
    static func readStandardInput() throws(InputError) -> [UInt8] {
        try URLListInput.read()
    }

    /// A file as it decides for one domain: compiled once per domain. A
    /// class, so that the lines rendering against it share it without
    /// copying (and retaining) each of its parts per line.
    private final class Target: Sendable {
        let file: AASAFile
        let appIDs: [String]
        let matcher: AASAMatcher

        init(file: AASAFile, appIDs: [String], matcher: AASAMatcher) {
            self.file = file
            self.appIDs = appIDs
            self.matcher = matcher
        }
    }

    /// A domain's file and apps, before the files are compiled together.
    private struct Resolved {
        var file: AASAFile
        var appIDs: [String]
    }

    /// One entry, parsed.
    private enum Parsed: Sendable {
        case url(AASAURL)
        case failed(text: String, error: String)
    }

    /// One input line's outcome.
    private enum Line: Sendable {
        /// A URL to decide with the file of `targets[target]`.
        case decided(url: AASAURL, target: Int)
        case failed(text: String, error: String)
    }

    /// The decisions: line `i` of target `t` has
    /// `results[t][start[i]..<start[i] + appIDs.count]`, app by app.
    private struct Decided: Sendable {
        var results: [[MatchResult]]
        var start: [Int32]
    }

    /// The rendered lines (UTF-8, in pieces to write one after the other),
    /// the errors, and the exit code: 0 every URL decided, 2 a line could not
    /// be (or there was no URL at all).
    func run(input: URLListInput) -> (output: [[UInt8]], errors: [String], exitCode: Int32) {
        let entries = input.entries
        guard !entries.isEmpty else {
            return ([], ["error: no URL on standard input (one per line)"], 2)
        }
        let parsed = Self.parse(input)
        var resolvedTargets: [(domain: String, resolved: Resolved)] = []
        var resolved: [String: Result<Int, InputError>] = [:]
        // Consecutive URLs nearly always share a host: the last one's
        // target is reused without lowercasing or hashing it again.
        var last: (host: String, target: Int)?
        let lines = zip(entries, parsed).map { entry, parsed -> Line in
            let url: AASAURL
            switch parsed {
            case .failed(let text, let error): return .failed(text: text, error: error)
            case .url(let parsedURL): url = parsedURL
            }
            if let last, last.host == url.host { return .decided(url: url, target: last.target) }
            let domain = (self.domain ?? url.host).lowercased()
            let found =
                resolved[domain]
                ?? Result { () throws(InputError) in
                    resolvedTargets.append((domain, try target(for: domain)))
                    return resolvedTargets.count - 1
                }
            resolved[domain] = found
            switch found {
            case .success(let index):
                last = (url.host, index)
                return .decided(url: url, target: index)
            case .failure(let error):
                return .failed(text: input.text(of: entry), error: error.description)
            }
        }
        // Only the files the list's hosts need, each distinct one compiled
        // once (a brand's domains mostly serve one file), across the cores.
        let matchers = AASAMatcher.compile(resolvedTargets.map(\.resolved.file))
        let targets = zip(resolvedTargets, matchers).map { pair, matcher in
            let (domain, resolved) = pair
            return (
                domain: domain,
                target: Target(file: resolved.file, appIDs: resolved.appIDs, matcher: matcher.serving(domain: domain))
            )
        }
        let decided = decide(lines, targets: targets.map(\.target))
        let errors = lines.compactMap { line -> String? in
            guard case .failed(_, let error) = line else { return nil }
            return "error: \(error)"
        }
        let compiled = targets
        let pieces = ParallelBatch.mapRanges(count: lines.count, parallel: true) { range in
            render(lines, range, targets: compiled, decided: decided)
        }
        return (pieces, errors, errors.isEmpty ? 0 : 2)
    }

    /// Every entry's URL, parsed across the cores: each ASCII line becomes
    /// a `String` only on the thread that parses it.
    private static func parse(_ input: URLListInput) -> [Parsed] {
        let entries = input.entries
        let chunks = ParallelBatch.mapRanges(count: entries.count, parallel: true) { range in
            entries[range].map { entry -> Parsed in
                let text = input.text(of: entry)
                if case .invalid(_, let error) = entry { return .failed(text: text, error: error) }
                switch Result(catching: { () throws(AASAURLError) in try AASAURL(text) }) {
                case .success(let url): return .url(url)
                case .failure(let error):
                    return .failed(text: text, error: "cannot evaluate \(text): \(error.description)")
                }
            }
        }
        return chunks.count == 1 ? chunks[0] : Array(chunks.joined())
    }

    /// Lines `range` with their results, rendered: JSON one object per
    /// line; text a blank line between URLs, as between paragraphs.
    private func render(
        _ lines: [Line],
        _ range: Range<Int>,
        targets: [(domain: String, target: Target)],
        decided: Decided
    ) -> [UInt8] {
        var writer = JSONTextWriter(capacity: range.count * (format == .json ? 512 : 256))
        var rules = RuleFragments()
        // Consecutive URLs nearly always share a host: whether the file
        // serves it is asked once per run of them.
        var lastHost: (host: String, target: Int, served: Bool)?
        // The target of the line before and its decisions, taken out of
        // the shared tables once per run of lines: per line, copying them
        // retained and released the same few objects from every core.
        var current = (target: -1, domain: "", appIDs: [String](), results: [MatchResult]())
        for index in range {
            switch (lines[index], format) {
            case (.decided(let url, let target), .json):
                if target != current.target {
                    current = (target, targets[target].domain, targets[target].target.appIDs, decided.results[target])
                }
                let start = Int(decided.start[index])
                MatchEvaluation.writeHead(url: url, domain: current.domain, to: &writer)
                for (offset, appID) in current.appIDs.enumerated() {
                    let result = current.results[start + offset]
                    let why = MatchEvaluation.why(result, url: url) {
                        if let lastHost, lastHost.target == target, lastHost.host == url.host { return lastHost.served }
                        let (domain, compiled) = targets[target]
                        let served = MatchEvaluation.host(url.host, isServedBy: domain, file: compiled.file)
                        lastHost = (url.host, target, served)
                        return served
                    }
                    MatchEvaluation.writeOutcome(
                        first: offset == 0,
                        appID: appID,
                        result: result,
                        why: why,
                        explanation: nil,
                        domain: current.domain,
                        to: &writer,
                        rules: &rules
                    )
                }
                writer.raw("]}")
            case (.decided(let url, let target), .text):
                let (domain, compiled) = targets[target]
                let start = Int(decided.start[index])
                let evaluation = MatchEvaluation(
                    url: url,
                    domain: domain,
                    file: compiled.file,
                    results: compiled.appIDs.indices.map { (compiled.appIDs[$0], decided.results[target][start + $0]) },
                    explained: false
                )
                writer.raw(Array(evaluation.textLines().joined(separator: "\n").utf8))
            case (.failed(let text, let error), .json):
                writer.value(["url": .string(text), "error": .string(error)])
            case (.failed(let text, let error), .text):
                writer.raw(Array("URL: \(text)\nerror: \(error)".utf8))
            }
            if index < lines.count - 1 { writer.raw(format == .json ? "\n" : "\n\n") }
        }
        return writer.bytes
    }

    /// Each target's decisions for its lines, app by app: one batch per
    /// file, so every file's URLs are matched across the cores.
    private func decide(_ lines: [Line], targets: [Target]) -> Decided {
        var requests = [[MatchRequest]](repeating: [], count: targets.count)
        var start = [Int32](repeating: -1, count: lines.count)
        for (index, line) in lines.enumerated() {
            guard case .decided(let url, let target) = line else { continue }
            start[index] = Int32(requests[target].count)
            for appID in targets[target].appIDs { requests[target].append(MatchRequest(url: url, appID: appID)) }
        }
        let results = targets.indices.map { targets[$0].matcher.evaluate(requests[$0]) }
        return Decided(results: results, start: start)
    }

    /// The file serving `domain` and its apps to decide for.
    private func target(for domain: String) throws(InputError) -> Resolved {
        let site: LinkTestSites.Site
        switch source {
        case .file(let file):
            site = file
        case .directory(let path, let sites):
            guard let (_, found) = sites.site(for: domain) else {
                throw InputError("\(path): no file for \(domain) (hosts: \(sites.hostNames.joined(separator: ", ")))")
            }
            site = found
        }
        let file: AASAFile
        switch site.content {
        case .unusable(let reason): throw InputError(reason)
        case .absent(let host): throw InputError("\(site.name): \(LinkTestSites.Site.noAssociationFile(host: host))")
        case .file(let usable): file = usable
        }
        guard file.json.objectValue != nil else {
            throw InputError("\(site.name): not an association file: the root is \(file.json.typeName), not an object")
        }
        var appIDs = file.appLinksAppIDs
        if let app {
            if let problem = UnknownApp(app: app, sources: [.run], files: [file]) {
                throw InputError(problem.description(namingRunApp: LinkTestInvocation.flag))
            }
            appIDs = app.matching(appIDs)
        }
        return Resolved(file: file, appIDs: appIDs)
    }
}
