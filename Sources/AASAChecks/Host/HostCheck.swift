import AASAKit
import Foundation

/// Checks that a deployed host serves its association file the way Apple's
/// systems require (docs/SEMANTICS.md §7), check by check (docs/CHECKS.md
/// has each with the test that proves it fails):
///
/// | id | passes when |
/// |---|---|
/// | `connect` | a connection was made |
/// | `tls.trusted` | the chain is trusted and the certificate names the host (not the `--base-url`) |
/// | `tls.expiry` | the certificate is valid for more than 14 days (warning below) |
/// | `http.redirect` | the answer is not a 3xx (Apple never follows one) |
/// | `http.status` | the answer is 200 |
/// | `http.content-type` | `application/json` (other types: warning) |
/// | `file.size` | the uncompressed body is at most 131,072 bytes |
/// | `json.valid` | the body is JSON |
/// | `aasa.schema`, `aasa.lints` | the validator finds no error (lint warnings warn) |
/// | `legacy-path` | `/apple-app-site-association` is absent or the same file |
/// | `android.*` | `/.well-known/assetlinks.json` is served right (``AssetLinksHostCheck``) |
/// | `app.listed` | (when asked) the app is in `applinks` |
public struct HostCheck: Sendable {
    /// What to check beyond the file itself.
    public struct Options: Sendable {
        /// The app that must be listed in `applinks`.
        public var app: LinkTestApp?
        /// What Android's `assetlinks.json` must be (not checked by default).
        public var android: AndroidExpectations
        /// Certificates expiring within this many days are a warning.
        public var expiryWarningDays: Int
        /// The clock for the expiry check.
        public var now: Date

        public init(
            app: LinkTestApp? = nil,
            android: AndroidExpectations = AndroidExpectations(presence: .notChecked),
            expiryWarningDays: Int = 14,
            now: Date = Date()
        ) {
            self.app = app
            self.android = android
            self.expiryWarningDays = expiryWarningDays
            self.now = now
        }
    }

    public let fetcher: HTTPFetcher
    public var options: Options

    public init(fetcher: HTTPFetcher, options: Options = Options()) {
        self.fetcher = fetcher
        self.options = options
    }

    /// Runs every check against `target`; never throws: a failure is a check.
    public func run(_ target: HostTarget) async -> HostReport {
        let url = target.url(HostTarget.wellKnownPath)
        var checks = CheckList()
        async let legacy = fetchOptional(target, HostTarget.legacyPath)
        async let android = runAndroid(target)

        let body: [UInt8]?
        do {
            let response = try await fetcher.fetch(target.request(HostTarget.wellKnownPath))
            checks.add("connect", .pass, "connected to \(target.connectionDescription ?? target.origin)")
            TLSChecks(fetcher: fetcher.configuration, now: options.now, expiryWarningDays: options.expiryWarningDays)
                .addPassed(response.certificate, target: target, to: &checks)
            body = checkHTTP(response, to: &checks)
        } catch {
            addFailure(error, target: target, to: &checks)
            body = nil
        }
        let legacyResult = await legacy
        if let body {
            checkFile(body, target: target, legacy: legacyResult, to: &checks)
        } else if case .success(let response)? = legacyResult, response.status == 200,
            let status = checks.results.firstIndex(where: { $0.id == "http.status" && $0.status == .fail })
        {
            // The file is only where iOS 9-13 looked: modern systems never see it.
            checks.results[status].message +=
                "; \(HostTarget.legacyPath) answers 200, but iOS 14 and later read only \(HostTarget.wellKnownPath)"
        }
        let androidResult = await android
        return HostReport(
            host: target.host,
            url: url,
            connectedTo: target.connectionDescription,
            checks: checks.completed(skipping: Self.skipReason(checks)) + (androidResult?.checks ?? []),
            android: androidResult?.report
        )
    }

    private func runAndroid(_ target: HostTarget) async -> (checks: [CheckResult], report: AndroidReport)? {
        guard options.android.presence != .notChecked else { return nil }
        return await AssetLinksHostCheck(fetcher: fetcher, expectations: options.android).run(target)
    }

    private func fetchOptional(_ target: HostTarget, _ path: String) async -> Result<FetchedResponse, FetchError>? {
        do {
            return .success(try await fetcher.fetch(target.request(path)))
        } catch {
            return .failure(error)
        }
    }

    /// Records the HTTP-level checks; returns the body when there is a file to look at.
    private func checkHTTP(_ response: FetchedResponse, to checks: inout CheckList) -> [UInt8]? {
        if response.isRedirect {
            let location =
                response.header("Location").map { location in
                    Self.isSameURL(location, as: response.url) ? "to the same URL (\(location))" : "to \(location)"
                } ?? "without a Location"
            checks.add(
                "http.redirect",
                .fail,
                "\(response.statusLine) redirect \(location); Apple does not follow redirects"
            )
            checks.add("http.status", .fail, "\(response.statusLine) instead of 200")
            return nil
        }
        checks.add("http.redirect", .pass, "no redirect")
        guard response.status == 200 else {
            checks.add("http.status", .fail, "\(response.statusLine) instead of 200")
            return nil
        }
        checks.add("http.status", .pass, "200 OK")
        checks.add(ContentTypeCheck.check(response))
        let size = response.body.count
        let wire = response.contentEncoding.map { ", \(response.transferredBytes) bytes \($0) on the wire" } ?? ""
        if size > AASAValidator.maximumFileSize {
            checks.add(
                "file.size",
                .fail,
                "\(size) bytes uncompressed\(wire): over Apple's limit of \(AASAValidator.maximumFileSize) bytes; the system ignores the file"
            )
        } else {
            checks.add("file.size", .pass, "\(size) bytes uncompressed\(wire)")
        }
        return response.body
    }

    private func addFailure(_ error: FetchError, target: HostTarget, to checks: inout CheckList) {
        let connected = "connected to \(target.connectionDescription ?? target.origin)"
        switch error.kind {
        case .invalidURL, .dnsFailure, .connectionRefused, .unreachable, .connectTimeout:
            checks.add("connect", .fail, error.message)
        case .tls(let failure):
            checks.add("connect", .pass, connected)
            TLSChecks(fetcher: fetcher.configuration, now: options.now, expiryWarningDays: options.expiryWarningDays)
                .addFailed(failure, certificate: error.certificate, to: &checks)
        case .bodyTooLarge:
            checks.add("connect", .pass, connected)
            checks.add("file.size", .fail, "\(error.message); Apple's limit is \(AASAValidator.maximumFileSize) bytes")
        case .undecodableBody:
            checks.add("connect", .pass, connected)
            checks.add("json.valid", .fail, "\(error.message); Apple's systems cannot read it either")
        case .timeout:
            // Whether the connection or the answer was slow is unknown here.
            checks.add("http.status", .fail, error.message)
        case .connectionClosed, .invalidResponse, .transport:
            checks.add("connect", .pass, connected)
            checks.add("http.status", .fail, error.message)
        }
    }

    private func checkFile(
        _ body: [UInt8],
        target: HostTarget,
        legacy: Result<FetchedResponse, FetchError>?,
        to checks: inout CheckList
    ) {
        let json: JSONValue
        do {
            json = try JSONParser().parse(body).value
            checks.add("json.valid", .pass, "valid JSON")
        } catch {
            checks.add("json.valid", .fail, error.description)
            return
        }
        let report = AASAValidator().validate(bytes: body, file: target.url(HostTarget.wellKnownPath))
            .locating(in: body)
        let schema = report.diagnostics.filter { $0.code.hasPrefix("schema") }
        let lints = report.diagnostics.filter { !$0.code.hasPrefix("schema") }
        checks.add(Self.summarise("aasa.schema", schema, clean: "matches the AASA schema"))
        checks.add(Self.summarise("aasa.lints", lints, clean: "no lint findings"))
        checks.add(LegacyPathCheck.check(legacy, wellKnown: json))
        if let app = options.app {
            checks.add(Self.appListed(app, in: AASAFile(json: json)))
        }
    }

    /// Why the checks never recorded were skipped: a body that arrived but
    /// is not JSON was fetched, and saying otherwise sends the user to the
    /// network instead of the file.
    static func skipReason(_ checks: CheckList) -> String {
        func failed(_ id: String) -> Bool { checks.results.contains { $0.id == id && $0.status == .fail } }
        if failed("json.valid") { return "the file is not JSON" }
        if failed("file.size") { return "the file is over Apple's size limit and was not read whole" }
        return "the file could not be fetched"
    }

    /// Whether a `Location` (absolute or relative) points back at `url`:
    /// a redirect loop, which some servers produce for a missing trailing
    /// slash or a forced scheme.
    static func isSameURL(_ location: String, as url: String) -> Bool {
        guard let base = URL(string: url), let target = URL(string: location, relativeTo: base)?.absoluteURL else {
            return false
        }
        return target.host?.lowercased() == base.host?.lowercased()
            && target.path(percentEncoded: true) == base.path(percentEncoded: true)
            && target.scheme?.lowercased() == base.scheme?.lowercased() && target.port == base.port
    }

    /// Errors fail, warnings warn; the message names the first few findings.
    static func summarise(_ id: String, _ diagnostics: [Diagnostic], clean: String) -> CheckResult {
        guard let worst = diagnostics.map(\.severity).max(), worst > .info else {
            return CheckResult(id, .pass, clean)
        }
        let shown = diagnostics.filter { $0.severity == worst }
        let listed = shown.prefix(3).map { diagnostic in
            let position = diagnostic.position.map { " (line \($0.line), column \($0.column))" } ?? ""
            return "\(diagnostic.path)\(position): \(diagnostic.message) [\(diagnostic.code)]"
        }.joined(separator: "; ")
        let more = shown.count > 3 ? " (+\(shown.count - 3) more)" : ""
        let noun = worst == .error ? "error" : "warning"
        return CheckResult(
            id,
            worst == .error ? .fail : .warn,
            "\(shown.count) \(noun)\(shown.count == 1 ? "" : "s"): \(listed)\(more)"
        )
    }

    static func appListed(_ app: LinkTestApp, in file: AASAFile) -> CheckResult {
        let listed = file.appLinksAppIDs
        let found = listed.filter { app.matches(appID: $0) }
        guard found.isEmpty else {
            return CheckResult("app.listed", .pass, "\(found.joined(separator: ", ")) listed in applinks")
        }
        let others = listed.isEmpty ? "applinks lists no app" : "applinks lists \(listed.joined(separator: ", "))"
        return CheckResult("app.listed", .fail, "\(app) is not listed; \(others)")
    }
}
