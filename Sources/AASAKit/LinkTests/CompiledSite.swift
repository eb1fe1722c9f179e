/// What an association file decides, compiled once: its matcher, its app
/// IDs and the result of each rule that can decide. Nothing in it depends
/// on the host serving the file, so every host serving an identical file
/// shares one.
final class CompiledSite: Sendable {
    let matcher: AASAMatcher
    let appIDs: [String]
    /// The result of each rule that can decide, detail after detail.
    let decided: [MatchResult]
    /// Where each detail's rules start in ``decided``.
    private let ruleOffsets: [Int]

    init(_ file: AASAFile) {
        matcher = AASAMatcher(file: file)
        appIDs = file.appLinksAppIDs
        var offsets: [Int] = []
        var decided: [MatchResult] = []
        for (detail, count) in matcher.ruleCounts.enumerated() {
            offsets.append(decided.count)
            for position in 0..<count { decided.append(matcher.decided(detail: detail, position: position)) }
        }
        ruleOffsets = offsets
        self.decided = decided
    }

    /// The place in ``decided`` of the rule at `position` of `detail`.
    func rule(detail: Int32, position: Int32) -> Int32 {
        Int32(ruleOffsets[Int(detail)]) + position
    }

    /// One compiled site per file, in order: equal files (the same JSON
    /// value: what the matcher reads, so a reformatted copy shares too)
    /// share one, and the distinct files are compiled across the cores.
    /// `compiled` counts the compiles.
    static func compile(_ files: [AASAFile]) -> (sites: [CompiledSite], compiled: Int) {
        let (sites, compiled) = DistinctBatch.map(files.map(\.json)) { CompiledSite(files[$0]) }
        return (sites, compiled)
    }
}
