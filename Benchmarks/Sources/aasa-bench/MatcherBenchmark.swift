import AASAKit
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic seconds.
@inline(__always)
func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

func log(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// `aasa-bench matcher`: URLs per second on a large realistic file, ours vs
/// the naive regex translation, and the adversarial pattern.
struct MatcherBenchmark {
    let quick: Bool
    let regexCapSeconds: Double

    func run() {
        var result: [String: Any] = [:]
        do {
            result["realistic"] = try realistic()
        } catch {
            log("matcher benchmark failed: \(error)")
            exit(1)
        }
        result["adversarial"] = Adversarial(quick: quick, capSeconds: regexCapSeconds).run()
        let data = (try? JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])) ?? Data("{}".utf8)
        print("MATCHER_JSON " + String(decoding: data, as: UTF8.self))
    }

    private func realistic() throws -> [String: Any] {
        let corpus = MatcherCorpus(rules: 420, urls: quick ? 2000 : 5000)
        let document = try JSONParser().parse(Array(corpus.json.utf8)).value
        let file = AASAFile(json: document)
        let compileStart = now()
        let matcher = AASAMatcher(file: file, domain: MatcherCorpus.domain)
        let oursCompile = now() - compileStart
        let regexStart = now()
        let naive = try NaiveRegexMatcher(file: file, domain: MatcherCorpus.domain)
        let regexCompile = now() - regexStart

        let urls = try corpus.urls.map { try AASAURL($0) }
        let inputs = urls.map(NaiveRegexMatcher.Input.init)
        // Mostly the main app; every tenth URL asks for the kiosk app.
        let appIDs = urls.indices.map { $0 % 10 == 9 ? MatcherCorpus.otherAppID : MatcherCorpus.appID }

        var ours: [MatchDecision] = []
        var theirs: [NaiveRegexMatcher.Decision] = []
        let passes = quick ? 1 : 5
        var oursRates: [Double] = []
        var regexRates: [Double] = []
        for _ in 0..<passes {
            var decisions: [MatchDecision] = []
            decisions.reserveCapacity(urls.count)
            let start = now()
            for index in urls.indices {
                decisions.append(matcher.evaluate(urls[index], appID: appIDs[index]).decision)
            }
            oursRates.append(Double(urls.count) / (now() - start))
            ours = decisions

            var regexDecisions: [NaiveRegexMatcher.Decision] = []
            regexDecisions.reserveCapacity(urls.count)
            let regexStart = now()
            for index in inputs.indices {
                regexDecisions.append(naive.evaluate(inputs[index], appID: appIDs[index]))
            }
            regexRates.append(Double(urls.count) / (now() - regexStart))
            theirs = regexDecisions
        }
        var agree = 0
        var counts: [String: Int] = [:]
        for (mine, other) in zip(ours, theirs) {
            if mine.rawValue == other.rawValue { agree += 1 }
            counts[mine.rawValue, default: 0] += 1
        }
        let oursRate = median(oursRates)
        let regexRate = median(regexRates)
        log(
            String(
                format:
                    "matcher: %d rules, %d URLs (%@): ours %.0f URLs/s, regex %.0f URLs/s, ratio %.2fx; decisions agree on %.1f%%",
                corpus.ruleCount,
                urls.count,
                counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "),
                oursRate,
                regexRate,
                oursRate / regexRate,
                100 * Double(agree) / Double(urls.count)
            )
        )
        return [
            "rules": corpus.ruleCount,
            "fileBytes": corpus.json.utf8.count,
            "urls": urls.count,
            "passes": passes,
            "decisions": counts,
            "oursURLsPerSecond": oursRate.rounded(),
            "regexURLsPerSecond": regexRate.rounded(),
            "ratio": (oursRate / regexRate * 100).rounded() / 100,
            "agreementPercent": (1000 * Double(agree) / Double(urls.count)).rounded() / 10,
            "oursCompileMs": (oursCompile * 1e5).rounded() / 100,
            "regexCompileMs": (regexCompile * 1e5).rounded() / 100,
        ]
    }
}

/// `*a*a*a*a*a*a*b` against `/aaaa…` (no `b`, so every split is tried by a
/// backtracking matcher).
struct Adversarial {
    static let pattern = "*a*a*a*a*a*a*b"
    let quick: Bool
    let capSeconds: Double

    static func url(length: Int) -> String {
        "https://adv.bench.example/" + String(repeating: "a", count: max(0, length - 1))
    }

    func run() -> [String: Any] {
        let lengths = quick ? [1024, 4096, 16384, 65536] : [1024, 2048, 4096, 8192, 16384, 32768, 65536]
        var oursRows: [[String: Any]] = []
        let json =
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.brand.app"],"components":[{"/":"\#(Self.pattern)"}]}]}}"#
        guard let document = try? JSONParser().parse(Array(json.utf8)).value else { return [:] }
        let matcher = AASAMatcher(file: AASAFile(json: document), domain: "adv.bench.example")
        for length in lengths {
            guard let url = try? AASAURL(Self.url(length: length)) else { continue }
            var runs = 0
            var decision = MatchDecision.none
            let start = now()
            var elapsed = 0.0
            repeat {
                decision = matcher.evaluate(url, appID: "ABCDE12345.com.brand.app").decision
                runs += 1
                elapsed = now() - start
            } while elapsed < (quick ? 0.05 : 0.2)
            let perEvaluate = elapsed / Double(runs)
            oursRows.append(["length": length, "seconds": perEvaluate, "decision": decision.rawValue])
            log(
                String(
                    format: "adversarial ours  %6d: %10.1f µs per evaluate (%@)",
                    length,
                    perEvaluate * 1e6,
                    decision.rawValue
                )
            )
        }

        // The regex side runs each case in a child process killed at the cap.
        // Short inputs first, to show the shape of the blow-up.
        var regexRows: [[String: Any]] = []
        var capped = false
        for length in [8, 16, 24, 32, 40, 48, 64, 256] + lengths {
            if capped {
                regexRows.append(["length": length, "seconds": NSNull(), "capped": true])
                log(
                    String(
                        format: "adversarial regex %6d: > %.0f s (not run: a shorter input already hit the cap)",
                        length,
                        capSeconds
                    )
                )
                continue
            }
            if let (seconds, outcome) = Self.regexChild(length: length, cap: capSeconds) {
                regexRows.append(["length": length, "seconds": seconds, "capped": false, "outcome": outcome])
                log(String(format: "adversarial regex %6d: %12.1f µs (%@)", length, seconds * 1e6, outcome))
            } else {
                capped = true
                regexRows.append(["length": length, "seconds": NSNull(), "capped": true])
                log(String(format: "adversarial regex %6d: > %.0f s (killed at the cap)", length, capSeconds))
            }
        }
        return ["pattern": Self.pattern, "capSeconds": capSeconds, "ours": oursRows, "regex": regexRows]
    }

    /// One evaluation of the naive regex, in this process: seconds, and
    /// `match`, `none` or `gave-up` (ICU's backtracking limit stopped it: the
    /// regex has no answer at all).
    static func regexOnce(length: Int) -> (Double, String) {
        guard
            let regex = try? NSRegularExpression(
                pattern: "^" + NaiveRegexMatcher.translate(pattern, variables: [:]) + "/?$"
            )
        else { return (0, "error") }
        let path = "/" + String(repeating: "a", count: max(0, length - 1))
        let range = NSRange(location: 0, length: (path as NSString).length)
        var matched = false
        var gaveUp = false
        let start = now()
        regex.enumerateMatches(in: path, options: [.anchored, .reportCompletion], range: range) { result, flags, _ in
            if result != nil { matched = true }
            if flags.contains(.internalError) { gaveUp = true }
        }
        let elapsed = now() - start
        return (elapsed, gaveUp ? "gave-up" : matched ? "match" : "none")
    }

    /// Runs `regex-case LENGTH` in a child; `nil` when it is killed at `cap`.
    /// (The pipe is read after exit: the child prints one short line.)
    static func regexChild(length: Int, cap: Double) -> (Double, String)? {
        let process = Process()
        process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["regex-case", String(length)]
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { return nil }
        let deadline = now() + cap
        while process.isRunning, now() < deadline {
            usleep(5_000)
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let fields = text.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard fields.count == 2, let seconds = Double(fields[0]) else { return nil }
        return (seconds, fields[1])
    }
}
