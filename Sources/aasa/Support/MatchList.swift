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
    /// The `--file` compiled on a thread of its own (``startCompiling()``).
    var compiledFile: BackgroundValue<AASAMatcher>?

    /// Starts compiling a `--file` that can serve, while the caller reads
    /// the list: every line's target is that file, for its own domain.
    mutating func startCompiling() {
        guard case .file(let site) = source, case .file(let file) = site.content, file.json.objectValue != nil else {
            return
        }
        compiledFile = BackgroundValue { AASAMatcher(file: file) }
    }

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
    final class Target: Sendable {
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

    /// The list decided, as the renderers read it: each line's URL (`nil`
    /// when it has none), its target (`-1` when it cannot be decided, then
    /// in `failures`) and its place in that target's verdicts.
    struct Decided: Sendable {
        let urls: [AASAURL?]
        let targetOf: [Int32]
        /// `nil` when there is one target: a line's place is its index.
        let slotOf: [Int32]?
        let targets: [(domain: String, target: Target)]
        let verdicts: [MatchVerdicts]
        /// The lines that cannot be decided: their text and why.
        let failures: [Int: (text: String, error: String)]

        func slot(_ line: Int) -> Int { slotOf.map { Int($0[line]) } ?? line }
    }

    /// What a run prints and returns: the rendering of its lines (`nil`
    /// for none), the errors, the exit code (0 every URL decided, 2 a line
    /// could not be, or there was no URL at all), and what the run is made
    /// of, for the process to keep until it exits.
    struct Run {
        var render: LinkTestOutput.Render?
        var errors: [String]
        var exitCode: Int32
        var decided: Decided?
    }

    func run(input: URLListInput) -> Run {
        guard !input.entries.isEmpty else {
            return Run(errors: ["error: no URL on standard input (one per line)"], exitCode: 2)
        }
        let urls = Self.parse(input)
        let resolution = resolve(urls, input: input)
        // Only the files the list's hosts need, each distinct one compiled
        // once (a brand's domains mostly serve one file), across the cores.
        let matchers =
            compiledFile.map { compiled in resolution.targets.map { _ in compiled.value() } }
            ?? AASAMatcher.compile(resolution.targets.map(\.resolved.file))
        let targets = zip(resolution.targets, matchers).map { pair, matcher in
            let (domain, resolved) = pair
            return (
                domain: domain,
                target: Target(file: resolved.file, appIDs: resolved.appIDs, matcher: matcher.serving(domain: domain))
            )
        }
        // One target: every line is decided in place. Several: each
        // target's lines are gathered, and a line's place noted.
        var slotOf: [Int32]?
        var lines = [[Int32]](repeating: [], count: targets.count)
        if targets.count > 1 {
            var slots = [Int32](repeating: -1, count: urls.count)
            for (index, target) in resolution.targetOf.enumerated() where target >= 0 {
                slots[index] = Int32(lines[Int(target)].count)
                lines[Int(target)].append(Int32(index))
            }
            slotOf = slots
        }
        let verdicts = targets.indices.map { index in
            targets[index].target.matcher.verdicts(
                urls,
                at: targets.count > 1 ? lines[index] : nil,
                appIDs: targets[index].target.appIDs
            )
        }
        let decided = Decided(
            urls: urls,
            targetOf: resolution.targetOf,
            slotOf: slotOf,
            targets: targets,
            verdicts: verdicts,
            failures: resolution.failures
        )
        let errors = decided.failures.keys.sorted().map { "error: \(decided.failures[$0]!.error)" }
        return Run(
            render: { write in renderWindows(decided, to: write) },
            errors: errors,
            exitCode: errors.isEmpty ? 0 : 2,
            decided: decided
        )
    }

    /// Every entry's URL, parsed across the cores from the input's bytes
    /// (each chunk's URLs sharing the string of a host they repeat); `nil`
    /// for an entry that is not one (``resolve(_:input:)`` says why).
    private static func parse(_ input: URLListInput) -> [AASAURL?] {
        let entries = input.entries
        let parse: @Sendable (Int, inout String?) -> AASAURL? = { index, host in
            input.bytes.withUnsafeBufferPointer { bytes in
                entries.withUnsafeBufferPointer { entries in
                    switch entries[index] {
                    case .ascii(let range):
                        try? AASAURL.parse(utf8: UnsafeBufferPointer(rebasing: bytes[range]), sharingHost: &host)
                    case .text(let text): try? AASAURL(text)
                    case .invalid: nil
                    }
                }
            }
        }
        return ParallelBatch.map(count: entries.count, parallel: true, state: { String?.none }, parse)
    }

    /// Each line's target (the file of its domain), the domains in the
    /// order they first appear with what they resolve to, and the lines
    /// that cannot be decided with their text and why: not a URL, or no
    /// usable file for the domain.
    private func resolve(_ urls: [AASAURL?], input: URLListInput) -> Resolution {
        var targets: [(domain: String, resolved: Resolved)] = []
        var resolved: [String: Result<Int, InputError>] = [:]
        var targetOf = [Int32](repeating: -1, count: urls.count)
        var failures: [Int: (text: String, error: String)] = [:]
        // Consecutive URLs nearly always share a host: the last one's
        // target is reused without lowercasing or hashing it again.
        var last: (host: String, target: Int)?
        urls.withUnsafeBufferPointer { urls in
            for index in urls.indices {
                guard let host = urls[index]?.host else {
                    failures[index] = Self.failure(of: input.entries[index], in: input)
                    continue
                }
                if let last, last.host == host {
                    targetOf[index] = Int32(last.target)
                    continue
                }
                let domain = (self.domain ?? host).lowercased()
                let found =
                    resolved[domain]
                    ?? Result { () throws(InputError) in
                        targets.append((domain, try target(for: domain)))
                        return targets.count - 1
                    }
                resolved[domain] = found
                switch found {
                case .success(let target):
                    last = (host, target)
                    targetOf[index] = Int32(target)
                case .failure(let error):
                    failures[index] = (input.text(of: input.entries[index]), error.description)
                }
            }
        }
        return Resolution(targets: targets, targetOf: targetOf, failures: failures)
    }

    /// What ``resolve(_:input:)`` finds.
    private struct Resolution {
        var targets: [(domain: String, resolved: Resolved)]
        var targetOf: [Int32]
        var failures: [Int: (text: String, error: String)]
    }

    /// Why `entry` has no URL, with its text: made again for the few such
    /// lines, which the parse across the cores had nowhere to keep.
    private static func failure(of entry: URLListInput.Entry, in input: URLListInput) -> (text: String, error: String) {
        let text = input.text(of: entry)
        if case .invalid(_, let error) = entry { return (text, error) }
        do {
            _ = try AASAURL(text)
            preconditionFailure("\(text) parsed the second time")
        } catch {
            return (text, "cannot evaluate \(text): \(error.description)")
        }
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
