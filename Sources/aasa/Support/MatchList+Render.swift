import AASAKit

extension MatchList {
    /// Every line, rendered and written window by window (``LinkTestOutput/window``
    /// lines, in chunks across the cores): the pages of a long output are
    /// reused from one window to the next, where rendering it whole faulted
    /// in all 43 MB of a 100,000-URL JSON output fresh. Stops once `write`
    /// answers `false`.
    func renderWindows(_ decided: Decided, to write: ([UInt8]) -> Bool) {
        // Each chunk takes a set of fragments made by an earlier one: the
        // outcomes are rendered a few times per run, not per chunk.
        let pool = SparePool<OutcomeFragments>()
        let count = decided.urls.count
        for start in stride(from: 0, to: count, by: LinkTestOutput.window) {
            let window = start..<min(start + LinkTestOutput.window, count)
            let parts = ParallelBatch.mapRanges(count: window.count, parallel: true) { chunk in
                var outcomes = pool.take(or: OutcomeFragments.init)
                defer { pool.giveBack(outcomes) }
                return render(decided, (start + chunk.lowerBound)..<(start + chunk.upperBound), outcomes: &outcomes)
            }
            for part in parts {
                guard write(part) else { return }
            }
        }
    }

    /// Lines `range` with their results, rendered: JSON one object per
    /// line; text a blank line between URLs, as between paragraphs.
    private func render(_ decided: Decided, _ range: Range<Int>, outcomes: inout OutcomeFragments) -> [UInt8] {
        var writer = JSONTextWriter(capacity: range.count * (format == .json ? 512 : 256))
        // The target of the line before, taken out of the shared tables
        // once per run of lines: per line, copying it retained and
        // released the same few objects from every core.
        var current: TargetView?
        for index in range {
            let target = Int(decided.targetOf[index])
            if target < 0 {
                let (text, error) = decided.failures[index]!
                switch format {
                case .json: writer.value(["url": .string(text), "error": .string(error)])
                case .text: writer.raw(Array("URL: \(text)\nerror: \(error)".utf8))
                }
            } else {
                if current?.index != target { current = TargetView(decided, target) }
                let url = decided.urls[index]!
                let slot = decided.slot(index)
                switch format {
                case .json: json(url, slot: slot, current!, outcomes: &outcomes, to: &writer)
                case .text: writer.raw(Array(evaluation(url, slot: slot, current!).utf8))
                }
            }
            if index < decided.urls.count - 1 { writer.raw(format == .json ? "\n" : "\n\n") }
        }
        return writer.bytes
    }

    /// One target's parts, as a run of its lines reads them.
    struct TargetView {
        let index: Int
        let domain: String
        let file: AASAFile
        let appIDs: [String]
        let verdicts: MatchVerdicts

        init(_ decided: Decided, _ index: Int) {
            let (domain, target) = decided.targets[index]
            (self.index, self.domain, file, appIDs) = (index, domain, target.file, target.appIDs)
            verdicts = decided.verdicts[index]
        }
    }

    /// One line's JSON object: its head, then each app's outcome. The
    /// outcome of a rule (or of no rule) is the same text for every URL
    /// it decides, given whether the URL is `http` (a match that does not
    /// open the app) and whether the file serves its host (a miss's
    /// `why`): made once per chunk of lines and copied.
    private func json(
        _ url: AASAURL,
        slot: Int,
        _ target: TargetView,
        outcomes: inout OutcomeFragments,
        to writer: inout JSONTextWriter
    ) {
        MatchEvaluation.writeHead(url: url, domain: target.domain, to: &writer)
        func served() -> Bool {
            outcomes.host(url.host, target: target.index, isServedBy: target.domain, file: target.file)
        }
        for offset in 0..<target.verdicts.appCount {
            guard let shared = target.verdicts.sharedKey(at: slot, app: offset) else {
                let result = target.verdicts.result(at: slot, app: offset)
                let why = MatchEvaluation.why(result, url: url, hostIsServed: served)
                outcomes.write(offset, target.appIDs[offset], result, why: why, domain: target.domain, to: &writer)
                continue
            }
            // A rule's outcome turns on the scheme, no rule's on the host.
            let flag = shared >= 0 ? url.scheme == "http" : served()
            let key = OutcomeFragments.Key(target: target.index, app: offset, verdict: shared, flag: flag)
            outcomes.write(key, to: &writer) { outcomes, fragment in
                let result = target.verdicts.result(at: slot, app: offset)
                let why = MatchEvaluation.why(result, url: url, hostIsServed: { flag })
                outcomes.write(offset, target.appIDs[offset], result, why: why, domain: target.domain, to: &fragment)
            }
        }
        writer.raw("]}")
    }

    /// One line's text: `aasa match URL`'s lines, without the explanation.
    private func evaluation(_ url: AASAURL, slot: Int, _ target: TargetView) -> String {
        let evaluation = MatchEvaluation(
            url: url,
            domain: target.domain,
            file: target.file,
            results: target.appIDs.indices.map { (target.appIDs[$0], target.verdicts.result(at: slot, app: $0)) },
            explained: false
        )
        return evaluation.textLines().joined(separator: "\n")
    }
}
