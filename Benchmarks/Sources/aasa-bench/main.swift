import Foundation

// aasa-bench: the Swift half of Benchmarks/run.sh.
//
//   aasa-bench sites DIR COUNT          write DIR/<host>/apple-app-site-association (~2 KB each)
//                                       and DIR/nginx-map.conf (the bodies inline, for nginx "map")
//   aasa-bench matcher [--quick]        AASAMatcher vs the naive NSRegularExpression translation;
//                                       prints a table on stderr and `MATCHER_JSON {...}` on stdout
//   aasa-bench regex-case LENGTH        one adversarial regex evaluation (run as a child process
//                                       so the parent can kill it at the time cap)

func usage() -> Never {
    FileHandle.standardError.write(
        Data("usage: aasa-bench sites DIR COUNT | matcher [--quick] [--cap SECONDS] | regex-case LENGTH\n".utf8)
    )
    exit(2)
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
case "regex-case":
    guard arguments.count == 1, let length = Int(arguments[0]) else { usage() }
    let (seconds, outcome) = Adversarial.regexOnce(length: length)
    print(String(format: "%.9f", seconds) + " " + outcome)
default:
    usage()
}
