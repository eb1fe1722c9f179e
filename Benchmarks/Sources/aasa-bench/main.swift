import Foundation

// aasa-bench: the Swift half of Benchmarks/run.sh.
//
//   aasa-bench sites DIR COUNT          write DIR/<host>/apple-app-site-association (~2 KB each)
//                                       and DIR/nginx-map.conf (the bodies inline, for nginx "map")
//   aasa-bench matcher [--quick]        AASAMatcher vs the naive NSRegularExpression translation;
//                                       prints a table on stderr and `MATCHER_JSON {...}` on stdout
//   aasa-bench link-corpus DIR [--rules N] [--urls N]
//                                       write DIR/apple-app-site-association (400 rules, excludes
//                                       first) and DIR/links.json (100,000 URLs) for `run.sh links`
//   aasa-bench links DIR [--app-id ID] [--profile N [--only parse|match]]
//                                       decide every URL of DIR/links.json through AASAKit; one
//                                       decision per line on stdout, phase times on stderr
//   aasa-bench lint FILE [--repeat N]   the lints of one file N times; best time per file on stderr
//   aasa-bench regex-case LENGTH        one adversarial regex evaluation (run as a child process
//                                       so the parent can kill it at the time cap)

func usage() -> Never {
    FileHandle.standardError.write(
        Data(
            """
            usage: aasa-bench sites DIR COUNT | matcher [--quick] [--cap SECONDS] | regex-case LENGTH
              | link-corpus DIR [--rules N] [--urls N] | links DIR [--app-id ID] [--profile N [--only parse|match]] | lint FILE [--repeat N]

            """.utf8
        )
    )
    exit(2)
}

/// The value after `name`, if any.
func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { usage() }
arguments.removeFirst()

switch command {
case "sites":
    guard arguments.count == 2, let count = Int(arguments[1]) else { usage() }
    do {
        try SiteGenerator.write(directory: arguments[0], count: count)
    } catch {
        FileHandle.standardError.write(Data("aasa-bench sites: \(error)\n".utf8))
        exit(1)
    }
case "matcher":
    let quick = arguments.contains("--quick")
    var cap = quick ? 2.0 : 5.0
    if let index = arguments.firstIndex(of: "--cap"), index + 1 < arguments.count,
        let value = Double(arguments[index + 1])
    {
        cap = value
    }
    MatcherBenchmark(quick: quick, regexCapSeconds: cap).run()
case "link-corpus":
    guard let directory = arguments.first else { usage() }
    let corpus = LinkListCorpus(
        rules: option("--rules", in: arguments).flatMap(Int.init) ?? 400,
        urls: option("--urls", in: arguments).flatMap(Int.init) ?? 100_000
    )
    do { try corpus.write(directory: directory) } catch {
        log("aasa-bench link-corpus: \(error)")
        exit(1)
    }
case "links":
    guard let directory = arguments.first else { usage() }
    var benchmark = LinkListBenchmark(directory: directory)
    if let appID = option("--app-id", in: arguments) { benchmark.appID = appID }
    benchmark.profilePasses = option("--profile", in: arguments).flatMap(Int.init) ?? 0
    benchmark.profileOnly = option("--only", in: arguments)
    do { try benchmark.run() } catch {
        log("aasa-bench links: \(error)")
        exit(1)
    }
case "lint":
    guard let path = arguments.first else { usage() }
    var benchmark = LintBenchmark(path: path)
    benchmark.repeats = option("--repeat", in: arguments).flatMap(Int.init) ?? 20
    do { try benchmark.run() } catch {
        log("aasa-bench lint: \(error)")
        exit(1)
    }
case "regex-case":
    guard arguments.count == 1, let length = Int(arguments[0]) else { usage() }
    let (seconds, outcome) = Adversarial.regexOnce(length: length)
    print(String(format: "%.9f", seconds) + " " + outcome)
default:
    usage()
}
