import AASAKit
import Foundation

/// `aasa-bench links DIR`: the link-list row through AASAKit's API, the
/// way `aasa test-links` runs it (read the file and the links file, encode
/// every URL, decide each for the app), printing one decision per line
/// (deep-linkable URLs first, like `naive_links.py`) for `run.sh` to compare.
///
/// `--profile N` runs URL parsing and matching N more times on one thread
/// and prints the best time per URL of each phase: the figures
/// `Benchmarks/PROFILE.md` tracks change by change; `--only parse|match`
/// limits that to one phase, so that `perf stat` with uprobes on `malloc`,
/// `swift_retain` and `swift_release` can count per URL (see PROFILE.md).
struct LinkListBenchmark {
    var directory: String
    var appID = LinkListCorpus.appID
    var profilePasses = 0
    /// `parse` or `match`: profile that phase only (for counting with `perf stat`).
    var profileOnly: String?

    func run() throws {
        let start = now()
        let fileBytes = try Array(Data(contentsOf: URL(fileURLWithPath: directory + "/apple-app-site-association")))
        let linksBytes = try Array(Data(contentsOf: URL(fileURLWithPath: directory + "/links.json")))
        let file = AASAFile(json: try JSONParser().parse(fileBytes).value)
        let read = now()
        let links = try JSONParser().parse(linksBytes).value
        let linksParsed = now()
        let strings = ["deep_linkable_urls", "non_deep_linkable_urls"].flatMap { key in
            (links[key]?.arrayValue ?? []).compactMap(\.stringValue)
        }
        let matcher = AASAMatcher(file: file)
        let loaded = now()

        let urls = AASAURL.parse(strings)
        let parsed = now()
        let valid = urls.compactMap { try? $0.get() }
        guard valid.count == urls.count else { throw BenchmarkError("\(urls.count - valid.count) URLs did not parse") }
        let results = matcher.evaluate(valid, appID: appID)
        let matched = now()

        var output = ""
        output.reserveCapacity(results.count * 8)
        for result in results {
            output += result.decision.rawValue
            output += "\n"
        }
        FileHandle.standardOutput.write(Data(output.utf8))
        let written = now()
        log(
            String(
                format:
                    "links: %d URLs; read + the rules %.1f ms, links JSON %.1f ms, matcher %.1f ms, parse URLs %.1f ms, match %.1f ms, write %.1f ms",
                strings.count,
                (read - start) * 1e3,
                (linksParsed - read) * 1e3,
                (loaded - linksParsed) * 1e3,
                (parsed - loaded) * 1e3,
                (matched - parsed) * 1e3,
                (written - matched) * 1e3
            )
        )
        if profilePasses > 0 { profile(strings: strings, urls: valid, matcher: matcher) }
    }

    /// Best-of-N nanoseconds per URL on one thread, per phase.
    private func profile(strings: [String], urls: [AASAURL], matcher: AASAMatcher) {
        var parseBest = Double.infinity
        var matchBest = Double.infinity
        var sink = 0
        for _ in 0..<profilePasses {
            if profileOnly != "match" {
                let parseStart = now()
                for case .success(let url) in AASAURL.parse(strings, parallel: false) {
                    sink &+= url.path.utf8.count
                }
                parseBest = min(parseBest, now() - parseStart)
            }
            if profileOnly != "parse" {
                let matchStart = now()
                for result in matcher.evaluate(urls, appID: appID, parallel: false) {
                    sink &+= result.decision == .matched ? 1 : 0
                }
                matchBest = min(matchBest, now() - matchStart)
            }
        }
        let count = Double(urls.count)
        log(
            String(
                format: "profile (one thread, best of %d): parse %.0f ns/URL, match %.0f ns/URL (%d)",
                profilePasses,
                parseBest / count * 1e9,
                matchBest / count * 1e9,
                sink
            )
        )
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
