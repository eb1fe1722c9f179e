import AASAKit

/// The `assetlinks` check: Android's `/.well-known/assetlinks.json` follows
/// the same hosting rules (HTTPS, 200, no redirect, `application/json`) and
/// must be a valid statement list.
enum AssetLinksCheck {
    static let id = "assetlinks"

    static func check(_ result: Result<FetchedResponse, FetchError>?) -> CheckResult {
        switch result {
        case nil:
            return CheckResult(id, .skip, "not fetched")
        case .failure(let error):
            return CheckResult(id, .fail, "could not fetch \(HostTarget.assetLinksPath): \(error.message)")
        case .success(let response):
            return check(response)
        }
    }

    private static func check(_ response: FetchedResponse) -> CheckResult {
        if response.isRedirect {
            let location = response.header("Location") ?? "(no Location)"
            return CheckResult(id, .fail, "\(response.statusLine) redirect to \(location); Android does not follow it")
        }
        guard response.status == 200 else {
            return CheckResult(id, .fail, "\(HostTarget.assetLinksPath) answers \(response.statusLine)")
        }
        let report = AssetLinksValidator().validate(bytes: response.body, file: response.url)
        let findings = HostCheck.summarise(id, report.diagnostics, clean: "valid statement list")
        guard findings.status == .pass else { return findings }
        let contentType = ContentTypeCheck.check(response, id: id)
        guard contentType.status == .pass else { return contentType }
        return findings
    }
}
