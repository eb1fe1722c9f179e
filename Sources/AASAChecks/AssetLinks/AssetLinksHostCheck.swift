import AASAKit

/// The `android.*` checks of `aasa check`: a host's
/// `/.well-known/assetlinks.json` held to the rules Android's verifier
/// applies (docs/ANDROID.md, "Hosting and includes").
///
/// | id | fails when |
/// |---|---|
/// | `android.http` | a redirect (never followed), any status but 200, no answer at all, or no file where one is required |
/// | `android.type` | `Content-Type` is not `application/json` |
/// | `android.size` | the body is over 131,072 bytes |
/// | `android.valid` | the validator finds an error (warnings warn) |
/// | `android.includes` | an include contributes nothing (loops only warn) |
/// | `android.delegates` | a `--package` lacks `handle_all_urls`, or a `--fingerprint` is not listed for it |
///
/// A host that serves no statement list (404, an HTML page, a redirect
/// elsewhere) is a warning unless the file is required: the same check
/// runs on hosts of iOS-only brands. A fetch that got no answer (refused,
/// timed out, TLS rejected) fails: it did not show the file is absent.
struct AssetLinksHostCheck {
    let fetcher: HTTPFetcher
    let expectations: AndroidExpectations

    static let ids = [
        "android.http", "android.type", "android.size", "android.valid", "android.includes", "android.delegates",
    ]

    func run(_ target: HostTarget) async -> (checks: [CheckResult], report: AndroidReport) {
        let url = target.url(HostTarget.assetLinksPath)
        var report = AndroidReport(url: url, served: false)
        let response: FetchedResponse
        do {
            response = try await fetcher.fetch(target.request(HostTarget.assetLinksPath))
        } catch {
            // A body that was there but unreadable is a file served wrongly, not a missing one.
            switch error.kind {
            case .bodyTooLarge:
                let size = CheckResult("android.size", .fail, error.message)
                return (completed([size], skipping: "the file could not be read whole"), report)
            case .undecodableBody:
                let valid = CheckResult("android.valid", .fail, "\(error.message); Android cannot read it either")
                return (completed([valid], skipping: "the file could not be decoded"), report)
            default:
                // No answer at all says nothing about whether the file exists;
                // Android's verifier, meeting the same failure, verifies nothing.
                let text =
                    "could not fetch \(HostTarget.assetLinksPath): \(error.message); whether this host serves one is unknown"
                    + (expectations.presence == .required ? "" : " (a host without an Android app: --no-assetlinks)")
                let http = CheckResult("android.http", .fail, text)
                return (completed([http], skipping: "the file could not be fetched"), report)
            }
        }
        if response.isRedirect {
            let location = response.header("Location") ?? "(no Location)"
            let text = "\(response.statusLine) redirect to \(location); Android does not follow redirects"
            // A redirect to another assetlinks.json means the file is meant to exist.
            guard location.split(separator: "?").first?.hasSuffix("assetlinks.json") == true else {
                return (absent(text), report)
            }
            return (completed([CheckResult("android.http", .fail, text)], skipping: "the file was not served"), report)
        }
        guard response.status == 200 else {
            return (absent("\(HostTarget.assetLinksPath) answers \(response.statusLine)"), report)
        }
        guard Self.looksLikeJSON(response.body) else {
            let type = response.mediaType.map { " (\($0))" } ?? ""
            return (absent("\(HostTarget.assetLinksPath) answers 200 with a body that is not JSON\(type)"), report)
        }
        report.served = true
        var checks = [CheckResult("android.http", .pass, "200 OK")]
        checks.append(Self.contentType(response))
        checks.append(Self.size(response))
        let validation = AssetLinksValidator().validate(bytes: response.body, file: url, host: target.host)
            .locating(in: response.body)
        checks.append(HostCheck.summarise("android.valid", validation.diagnostics, clean: "valid statement list"))
        guard !validation.hasErrors, let json = validation.json else {
            let rejected = "the file has errors: Google rejects all of it"
            checks.append(CheckResult("android.includes", .skip, rejected))
            checks.append(
                CheckResult("android.delegates", expectations.expectsDelegation ? .fail : .skip, rejected)
            )
            return (checks, report)
        }
        let file = AssetLinksFile(json: json)
        report.includes = await includes(of: file, at: url, target: target)
        checks.append(Self.includesCheck(report.includes))
        report.delegations =
            AndroidDelegation.all(in: file, source: url)
            + report.includes.flatMap { included in
                included.file.map { AndroidDelegation.all(in: $0, source: included.url) } ?? []
            }
        checks.append(DelegationCheck(expectations: expectations).check(report.delegations))
        return (checks, report)
    }

    /// Includes on the checked host go where its own file came from
    /// (`--base-url`, `--resolve`); others to their own hosts.
    private func includes(of file: AssetLinksFile, at url: String, target: HostTarget) async -> [IncludedFile] {
        let resolver = AssetLinksIncludeResolver(fetcher: fetcher) { include in
            guard let request = FetchRequest(include).parsed, request.host == target.host,
                request.port == 443, target.connectTo != nil
            else { return FetchRequest(include) }
            let path = include.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
            return target.request(path.count == 4 ? "/" + path[3] : "/")
        }
        // Android fetches the host's file from https://host/ whatever served it here.
        return await resolver.resolve(file, at: url, aliases: ["https://\(target.host)\(HostTarget.assetLinksPath)"])
    }

    /// No statement list: a warning, or a failure when the file is required.
    private func absent(_ reason: String) -> [CheckResult] {
        let status: CheckStatus = expectations.presence == .required ? .fail : .warn
        let hint =
            expectations.presence == .required
            ? "" : " (if this host has an Android app, its App Links do not verify; if not, --no-assetlinks)"
        return completed(
            [CheckResult("android.http", status, "no assetlinks.json: \(reason)\(hint)")],
            skipping: "no assetlinks.json"
        )
    }

    private func completed(_ results: [CheckResult], skipping reason: String) -> [CheckResult] {
        Self.ids.map { id in results.first { $0.id == id } ?? CheckResult(id, .skip, reason) }
    }

    /// The first non-space byte opens an array or object: the server meant
    /// to send a statement list, however broken.
    static func looksLikeJSON(_ body: [UInt8]) -> Bool {
        let first = body.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        return first == UInt8(ascii: "[") || first == UInt8(ascii: "{")
    }

    /// Google's documentation requires `application/json`; unlike Apple's
    /// tolerance of other types, nothing says Android accepts another.
    static func contentType(_ response: FetchedResponse) -> CheckResult {
        switch response.mediaType {
        case "application/json": CheckResult("android.type", .pass, "application/json")
        case nil: CheckResult("android.type", .fail, "no Content-Type; Android requires application/json")
        case let other?: CheckResult("android.type", .fail, "served as \(other); Android requires application/json")
        }
    }

    /// The same bound as the Apple file and the origin (docs/ANDROID.md).
    static func size(_ response: FetchedResponse) -> CheckResult {
        let size = response.body.count
        guard size <= AASAValidator.maximumFileSize else {
            return CheckResult(
                "android.size",
                .fail,
                "\(size) bytes uncompressed: over swift-aasa's limit of \(AASAValidator.maximumFileSize) bytes"
            )
        }
        return CheckResult("android.size", .pass, "\(size) bytes uncompressed")
    }

    static func includesCheck(_ includes: [IncludedFile]) -> CheckResult {
        guard !includes.isEmpty else { return CheckResult("android.includes", .skip, "no include statements") }
        let described = includes.map { "\($0.url): \($0.summary)" }
        let lost = includes.filter { $0.problem?.losesStatements == true }
        if !lost.isEmpty {
            let listed = lost.map { "\($0.url): \($0.problem?.message ?? "")" }.joined(separator: "; ")
            return CheckResult(
                "android.includes",
                .fail,
                "\(lost.count) of \(includes.count) include\(includes.count == 1 ? "" : "s") contribute nothing: \(listed)"
            )
        }
        let status: CheckStatus = includes.contains { $0.problem != nil } ? .warn : .pass
        return CheckResult("android.includes", status, described.joined(separator: "; "))
    }
}
