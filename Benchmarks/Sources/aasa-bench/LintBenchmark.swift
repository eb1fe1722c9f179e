import AASAKit
import Foundation

/// `aasa-bench lint FILE [--repeat N]`: the lints of one file, N times
/// (parsed once): the best time per run on stderr. Under
/// `valgrind --tool=cachegrind`, the difference between `--repeat N` and
/// `--repeat 0` divided by N is the instruction count per file that
/// `Benchmarks/PROFILE.md` tracks.
struct LintBenchmark {
    var path: String
    var repeats = 20

    func run() throws {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let json = try JSONParser().parse(bytes).value
        var best = Double.infinity
        var findings = 0
        for _ in 0..<repeats {
            let start = now()
            // The model is rebuilt each time, as a load does.
            findings = Linter().lint(json, document: AASAFile(json: json), byteCount: bytes.count).count
            best = min(best, now() - start)
        }
        if repeats > 0 {
            log(String(format: "lint: %@: %d findings, best %.1f µs per file", path, findings, best * 1e6))
        }
    }
}
