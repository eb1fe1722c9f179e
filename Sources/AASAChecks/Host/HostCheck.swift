import AASAKit
import Foundation

/// Checks that a deployed host serves its association file the way Apple's
/// systems require (docs/SEMANTICS.md §7), check by check:
///
/// | id | passes when |
/// |---|---|
/// | `connect` | a connection was made |
/// | `tls.trusted` | the chain is trusted for the host |
/// | `tls.expiry` | the certificate is valid for more than 14 days (warning below) |
/// | `http.redirect` | the answer is not a 3xx (Apple never follows one) |
/// | `http.status` | the answer is 200 |
/// | `http.content-type` | `application/json` (other types: warning) |
/// | `file.size` | the uncompressed body is at most 131,072 bytes |
/// | `json.valid` | the body is JSON |
/// | `aasa.schema`, `aasa.lints` | the validator finds no error (lint warnings warn) |
/// | `legacy-path` | `/apple-app-site-association` is absent or the same file |
/// | `assetlinks` | (when asked) `/.well-known/assetlinks.json` is served right |
/// | `app.listed` | (when asked) the app is in `applinks` |
public struct HostCheck: Sendable {
    /// What to check beyond the file itself.
    public struct Options: Sendable {
        /// The app that must be listed in `applinks`.
        public var app: LinkTestApp?
        /// Also check Android's `assetlinks.json`.
        public var assetLinks: Bool
        /// Certificates expiring within this many days are a warning.
        public var expiryWarningDays: Int
        /// The clock for the expiry check.
        public var now: Date

        public init(app: LinkTestApp? = nil, assetLinks: Bool = false, expiryWarningDays: Int = 14, now: Date = Date())
        {
            self.app = app
            self.assetLinks = assetLinks
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
        async let assetLinks = options.assetLinks ? fetchOptional(target, HostTarget.assetLinksPath) : nil

        let body: [UInt8]?
        do {
            let response = try await fetcher.fetch(url, host: target.hostHeader)
            checks.add("connect", .pass, "connected to \(target.base)")
            addTLSChecks(response.certificate, target: target, to: &checks)
            body = checkHTTP(response, to: &checks)
        } catch {
            addFailure(error, target: target, to: &checks)
            if error.kind == .tls {
                await explainUntrusted(error, target: target, to: &checks)
            }
            body = nil
        }
        if let body {
            checkFile(body, target: target, legacy: await legacy, to: &checks)
        } else {
            _ = await legacy
        }
        if options.assetLinks {
            checks.results.append(AssetLinksCheck.check(await assetLinks))
        }
        return HostReport(
            host: target.host,
            url: url,
            checks: checks.completed(skipping: "the file could not be fetched")
        )
    }

    private func fetchOptional(_ target: HostTarget, _ path: String) async -> Result<FetchedResponse, FetchError>? {
        do {
            return .success(try await fetcher.fetch(target.url(path), host: target.hostHeader))
        } catch {
            return .failure(error)
        }
    }

    /// Fetches again without verification, only to show which certificate
    /// the host presents and when it expires: "not trusted" alone does not
    /// say whether it is self-signed, expired or for another name.
    private func explainUntrusted(_ error: FetchError, target: HostTarget, to checks: inout CheckList) async {
        var configuration = fetcher.configuration
        configuration.insecure = true
        let presented = try? await HTTPFetcher(configuration: configuration)
            .fetch(target.url(HostTarget.wellKnownPath), host: target.hostHeader).certificate
        let hint = "use --ca-file for a private CA, or --insecure"
        guard let presented else {
            checks.add("tls.trusted", .fail, "\(error.message); \(hint)")
            return
        }
        let names = presented.dnsNames.isEmpty ? "" : " for \(presented.dnsNames.joined(separator: ", "))"
        let kind = presented.isSelfIssued ? "a self-signed certificate" : "a certificate issued by \(presented.issuer)"
        checks.add(
            "tls.trusted",
            .fail,
            "certificate rejected: the host presents \(kind) (\(presented.subject)\(names)); \(hint)"
        )
        addExpiry(presented, to: &checks)
    }

    private func addTLSChecks(_ certificate: PeerCertificate?, target: HostTarget, to checks: inout CheckList) {
        guard target.isHTTPS else {
            let reason = "plain HTTP to \(target.base); Apple only fetches over HTTPS"
            checks.add("tls.trusted", .skip, reason)
            checks.add("tls.expiry", .skip, reason)
            return
        }
        if fetcher.configuration.insecure {
            checks.add("tls.trusted", .skip, "not verified (--insecure)")
        } else {
            let via = fetcher.configuration.caFile.map { " (with --ca-file \($0))" } ?? ""
            let issuer = certificate.map { ", issued by \($0.issuer)" } ?? ""
            checks.add("tls.trusted", .pass, "certificate chain trusted\(via)\(issuer)")
        }
        guard let certificate else {
            checks.add("tls.expiry", .skip, "the certificate could not be read")
            return
        }
        addExpiry(certificate, to: &checks)
    }

    private func addExpiry(_ certificate: PeerCertificate, to checks: inout CheckList) {
        let days = certificate.daysUntilExpiry(from: options.now)
        let date = certificate.notValidAfter.formatted(.iso8601.year().month().day())
        if days < 0 {
            checks.add("tls.expiry", .fail, "certificate expired on \(date)")
        } else if days < options.expiryWarningDays {
            checks.add("tls.expiry", .warn, "certificate expires on \(date), in \(days) days")
        } else {
            checks.add("tls.expiry", .pass, "certificate valid until \(date) (\(days) days)")
        }
    }

    /// Records the HTTP-level checks; returns the body when there is a file to look at.
    private func checkHTTP(_ response: FetchedResponse, to checks: inout CheckList) -> [UInt8]? {
        if response.isRedirect {
            let location = response.header("Location").map { "to \($0)" } ?? "without a Location"
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
        switch error.kind {
        case .invalidURL, .connection:
            checks.add("connect", .fail, error.message)
        case .tls:
            checks.add("connect", .pass, "connected to \(target.base)")
        case .bodyTooLarge:
            checks.add("connect", .pass, "connected to \(target.base)")
            checks.add("file.size", .fail, "\(error.message); Apple's limit is \(AASAValidator.maximumFileSize) bytes")
        case .undecodableBody:
            checks.add("connect", .pass, "connected to \(target.base)")
            checks.add("file.size", .fail, error.message)
        case .timeout:
            // Whether the connection or the answer was slow is unknown here.
            checks.add("http.status", .fail, error.message)
        case .transport:
            checks.add("connect", .pass, "connected to \(target.base)")
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
        let schema = report.diagnostics.filter { $0.code.hasPrefix("schema") }
        let lints = report.diagnostics.filter { !$0.code.hasPrefix("schema") }
        checks.add(Self.summarise("aasa.schema", schema, clean: "matches the AASA schema"))
        checks.add(Self.summarise("aasa.lints", lints, clean: "no lint findings"))
        checks.add(LegacyPathCheck.check(legacy, wellKnown: json))
        if let app = options.app {
            checks.add(Self.appListed(app, in: AASAFile(json: json)))
        }
    }

    /// Errors fail, warnings warn; the message names the first few findings.
    static func summarise(_ id: String, _ diagnostics: [Diagnostic], clean: String) -> CheckResult {
        guard let worst = diagnostics.map(\.severity).max(), worst > .info else {
            return CheckResult(id, .pass, clean)
        }
        let shown = diagnostics.filter { $0.severity == worst }
        let listed = shown.prefix(3).map { "\($0.path): \($0.message) [\($0.code)]" }.joined(separator: "; ")
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
