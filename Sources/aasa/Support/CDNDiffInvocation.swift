import AASAChecks
import ArgumentParser

/// One `cdn-diff` run, shared by `aasa cdn-diff` and the seed's `aasa validate-cdn`.
struct CDNDiffInvocation {
    var domains: [String]
    var originBase: String?
    var cdnBase: String?
    var fromDir: String?
    var network: NetworkOptions
    var format: OutputFormat

    func execute() async throws(InputError) -> (output: String, exitCode: Int32) {
        var domains = domains
        if let fromDir { domains += try InputFiles.servedHosts(directory: fromDir) }
        guard !domains.isEmpty else { throw InputError("name at least one domain, or --from-dir") }
        let diff = CDNDiff(
            fetcher: try network.makeFetcher(),
            cdnBase: cdnBase ?? CDNDiff.appleCDNBase,
            originBase: originBase
        )
        let total = domains.count
        let comparisons = await concurrentMap(
            domains,
            limit: network.concurrency,
            operation: { domain in await diff.compare(domain) },
            progress: { done, domain in Terminal.progress("[\(done)/\(total)] \(domain)") }
        )
        Terminal.endProgress()
        let output = CDNDiffOutput(comparisons: comparisons)
        return (format == .json ? output.json() : output.text(), output.exitCode)
    }

    /// Runs, prints through `output`, and throws the exit code when it is not 0.
    func run(output: CommandOutput) async throws {
        try output.report(await Result.catching { () async throws(InputError) in try await execute() })
    }
}
