import AASAChecks
import AASAKit
import ArgumentParser
import Foundation

/// One `cdn-diff` run, shared by `aasa cdn-diff` and the seed's `aasa validate-cdn`.
///
/// With `--from-dir` or `--file`, Apple's CDN copy is compared with the
/// local files and no origin is contacted; otherwise (or with `--origin`)
/// with the live origin.
struct CDNDiffInvocation {
    var domains: [String]
    var originBase: String?
    var cdnBase: String?
    var fromDir: String?
    var file: String? = nil
    /// `--origin`: compare with the live origin even with `--from-dir`.
    var origin = false
    var strict = false
    var network: NetworkOptions
    var format: OutputFormat

    /// The rendered comparisons and the exit code; `notes` receives remarks
    /// on the input that are not findings.
    func execute(notes: (String) -> Void = { _ in }) async throws(InputError) -> (output: String, exitCode: Int32) {
        let overrides = try network.resolveOverrides()
        let diff = CDNDiff(fetcher: try network.makeFetcher(resolve: overrides), cdnBase: try cdnBaseURL())
        let sources = try sources(resolve: overrides)
        if let fromDir, domains.isEmpty,
            let note = InputFiles.skippedWildcardsNote(directory: fromDir, command: "cdn-diff")
        {
            notes(note)
        }
        var requests = [try Self.hostAndPort(of: diff.cdnURL("example.com"))]
        var moved: [String] = []
        for (_, source) in sources {
            guard case .origin(let target) = source else { continue }
            if target.viaBaseURL {
                moved.append(target.host)
            } else {
                requests.append((target.host, target.effectivePort))
            }
        }
        try network.requireUsed(overrides, by: requests, movedBy: ("--origin-base", moved))
        let total = sources.count
        let comparisons = await concurrentMap(
            sources,
            limit: network.concurrency,
            operation: { item in await diff.compare(item.0, with: item.1) },
            progress: { done, item in Terminal.progress("[\(done)/\(total)] \(item.0)") }
        )
        Terminal.endProgress()
        await diff.fetcher.shutdown()
        let output = CDNDiffOutput(comparisons: comparisons, strict: strict)
        return (format == .json ? output.json() : output.text(), output.exitCode)
    }

    /// Runs, prints through `output`, and throws the exit code when it is not 0.
    func run(output: CommandOutput) async throws {
        try output.report(
            await Result.catching { () async throws(InputError) in try await execute(notes: { output.errorLine($0) }) }
        )
    }

    private func cdnBaseURL() throws(InputError) -> String {
        guard let cdnBase else { return CDNDiff.appleCDNBase }
        guard let url = URL(string: cdnBase), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host?.isEmpty == false
        else { throw InputError("--cdn-base \(cdnBase): not an http(s) URL") }
        return cdnBase
    }

    /// Each domain once, with what its CDN copy is compared with.
    func sources(resolve overrides: [ResolveOverride]) throws(InputError) -> [(String, CDNDiff.Source)] {
        if file != nil && fromDir != nil { throw InputError("--file and --from-dir do not go together") }
        if file != nil && origin {
            throw InputError("--file compares with a local file; --origin with the live origin: pick one")
        }
        let local = (file != nil || fromDir != nil) && !origin
        if local, originBase != nil {
            throw InputError(
                "--origin-base names the origin, which is not contacted with --from-dir or --file; add --origin to compare with it"
            )
        }
        var names = domains
        if let fromDir, domains.isEmpty { names = try InputFiles.servedHosts(directory: fromDir) }
        guard !names.isEmpty else { throw InputError("name at least one domain, or --from-dir") }
        if file != nil, names.count != 1 {
            throw InputError(
                "--file holds one domain's file: name exactly one domain (aasa cdn-diff example.com --file F)"
            )
        }
        var seen: Set<String> = []
        var sources: [(String, CDNDiff.Source)] = []
        for name in names {
            let target: HostTarget
            do {
                target = try HostTarget(name, baseURL: local ? nil : originBase)
            } catch {
                throw InputError(error.description)
            }
            guard seen.insert(target.host).inserted else { continue }
            if let file {
                sources.append((target.host, .file(path: file, bytes: try InputFiles.bytes(file, what: "file"))))
            } else if let fromDir, local {
                sources.append((target.host, try Self.localSource(target.host, directory: fromDir)))
            } else {
                sources.append((target.host, .origin(target.connecting(per: overrides))))
            }
        }
        return sources
    }

    /// `<dir>/<domain>/apple-app-site-association`, else the `*.` wildcard
    /// directory's file that serves the domain; a domain the directory has
    /// no file for is bad input, not a silent skip.
    private static func localSource(_ domain: String, directory: String) throws(InputError) -> CDNDiff.Source {
        guard let path = InputFiles.servingFile(directory: directory, host: domain) else {
            let path = InputFiles.servedFile(directory: directory, host: domain)
            let hosts = (try? InputFiles.servedHosts(directory: directory)) ?? []
            let hint = Suggestion.closest(to: domain, in: hosts).map { " (did you mean \($0)?)" } ?? ""
            throw InputError("\(directory) has no file for \(domain): \(path) does not exist\(hint)")
        }
        return .file(path: path, bytes: try InputFiles.bytes(path, what: "file"))
    }

    private static func hostAndPort(of url: String) throws(InputError) -> (host: String, port: Int) {
        guard let parsed = URL(string: url), let host = parsed.host?.lowercased() else {
            throw InputError("\(url): not an http(s) URL")
        }
        return (host, parsed.port ?? (parsed.scheme?.lowercased() == "http" ? 80 : 443))
    }
}
