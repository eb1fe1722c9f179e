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

    /// All of standard input, as text.
    static func readStandardInput() -> String {
        String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    }

    /// A file as it decides for one domain: compiled once per domain.
    private struct Target: Sendable {
        var file: AASAFile
        var appIDs: [String]
        var matcher: AASAMatcher
    }

    /// One input line's outcome.
    private enum Line: Sendable {
        case decided(url: AASAURL, domain: String, target: Target)
        case failed(text: String, error: String)
    }

    /// The rendered lines (UTF-8, in pieces to write one after the other),
    /// the errors, and the exit code: 0 every URL decided, 2 a line could not
    /// be (or there was no URL at all).
    func run(input: String) -> (output: [[UInt8]], errors: [String], exitCode: Int32) {
        let texts = input.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard !texts.isEmpty else {
            return ([], ["error: no URL on standard input (one per line)"], 2)
        }
        var targets: [String: Result<Target, InputError>] = [:]
        let lines = zip(texts, AASAURL.parse(texts)).map { text, parsed -> Line in
            let url: AASAURL
            switch parsed {
            case .failure(let error): return .failed(text: text, error: "cannot evaluate \(text): \(error.description)")
            case .success(let parsedURL): url = parsedURL
            }
            let domain = (self.domain ?? url.host).lowercased()
            let resolved = targets[domain] ?? Result { () throws(InputError) in try target(for: domain) }
            targets[domain] = resolved
            switch resolved {
            case .success(let target): return .decided(url: url, domain: domain, target: target)
            case .failure(let error): return .failed(text: text, error: error.description)
            }
        }
        let results = decide(lines)
        let errors = lines.compactMap { line -> String? in
            guard case .failed(_, let error) = line else { return nil }
            return "error: \(error)"
        }
        let pieces = ParallelBatch.mapRanges(count: lines.count, parallel: true) { range in
            render(lines[range], results: results[range], last: range.upperBound == lines.count)
        }
        return (pieces, errors, errors.isEmpty ? 0 : 2)
    }

    /// Consecutive lines with their results, rendered: JSON one object per
    /// line; text a blank line between URLs, as between paragraphs.
    private func render(
        _ lines: ArraySlice<Line>,
        results: ArraySlice<[(appID: String, result: MatchResult)]>,
        last: Bool
    ) -> [UInt8] {
        var writer = JSONTextWriter(capacity: lines.count * (format == .json ? 512 : 256))
        var rules = RuleFragments()
        for (index, (line, outcomes)) in zip(lines.indices, zip(lines, results)) {
            switch (line, format) {
            case (.decided(let url, let domain, let target), _):
                let evaluation = MatchEvaluation(
                    url: url,
                    domain: domain,
                    file: target.file,
                    results: outcomes,
                    explained: false
                )
                if format == .json {
                    evaluation.write(to: &writer, rules: &rules)
                } else {
                    writer.raw(Array(evaluation.textLines().joined(separator: "\n").utf8))
                }
            case (.failed(let text, let error), .json):
                writer.value(["url": .string(text), "error": .string(error)])
            case (.failed(let text, let error), .text):
                writer.raw(Array("URL: \(text)\nerror: \(error)".utf8))
            }
            if !last || index < lines.endIndex - 1 { writer.raw(format == .json ? "\n" : "\n\n") }
        }
        return writer.bytes
    }

    /// Each decided line's results, app by app: one batch per file, so
    /// every file's URLs are matched across the cores.
    private func decide(_ lines: [Line]) -> [[(appID: String, result: MatchResult)]] {
        var results = [[(appID: String, result: MatchResult)]](repeating: [], count: lines.count)
        var batches: [(target: Target, lines: [Int], requests: [MatchRequest])] = []
        var batchOfDomain: [String: Int] = [:]
        for (index, line) in lines.enumerated() {
            guard case .decided(let url, let domain, let target) = line else { continue }
            // Appended in place: a copy taken out of a dictionary and put
            // back would copy the whole batch for every URL.
            let batch =
                batchOfDomain[domain]
                ?? {
                    batches.append((target, [], []))
                    batchOfDomain[domain] = batches.count - 1
                    return batches.count - 1
                }()
            for appID in target.appIDs {
                batches[batch].lines.append(index)
                batches[batch].requests.append(MatchRequest(url: url, appID: appID))
            }
        }
        for batch in batches {
            let decided = batch.target.matcher.evaluate(batch.requests)
            for (position, index) in batch.lines.enumerated() {
                results[index].append((batch.requests[position].appID, decided[position]))
            }
        }
        return results
    }

    /// The file serving `domain`, its apps to decide for, and its matcher.
    private func target(for domain: String) throws(InputError) -> Target {
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
        return Target(file: file, appIDs: appIDs, matcher: AASAMatcher(file: file, domain: domain))
    }
}
