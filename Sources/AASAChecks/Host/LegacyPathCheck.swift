import AASAKit

/// The `legacy-path` check: iOS 9–13 also read
/// `/apple-app-site-association`. Not serving it is fine today; serving a
/// different file there is a trap (older devices get other rules), and a
/// redirect there fails on those devices.
enum LegacyPathCheck {
    static let id = "legacy-path"

    static func check(_ result: Result<FetchedResponse, FetchError>?, wellKnown: JSONValue) -> CheckResult {
        switch result {
        case nil:
            return CheckResult(id, .skip, "not fetched")
        case .failure(let error):
            return CheckResult(id, .warn, "could not fetch \(HostTarget.legacyPath): \(error.message)")
        case .success(let response):
            return check(response, wellKnown: wellKnown)
        }
    }

    private static func check(_ response: FetchedResponse, wellKnown: JSONValue) -> CheckResult {
        if response.isRedirect {
            let location = response.header("Location") ?? "(no Location)"
            return CheckResult(
                id,
                .warn,
                "\(HostTarget.legacyPath) answers \(response.statusLine) to \(location); iOS 9–13 devices would fail there"
            )
        }
        guard response.status == 200 else {
            return CheckResult(
                id,
                .pass,
                "\(HostTarget.legacyPath) not served (\(response.statusLine)); only iOS 9–13 read it"
            )
        }
        guard let legacy = try? JSONParser().parse(response.body).value else {
            return CheckResult(
                id,
                .warn,
                "\(HostTarget.legacyPath) answers 200 but is not JSON; iOS 9–13 devices read it"
            )
        }
        let diff = JSONDiff(from: wellKnown, to: legacy)
        guard let first = diff.changes.first else {
            return CheckResult(id, .pass, "\(HostTarget.legacyPath) also served, same content")
        }
        let count = diff.changes.count
        return CheckResult(
            id,
            .warn,
            "\(HostTarget.legacyPath) differs from .well-known (\(count) change\(count == 1 ? "" : "s"), first: \(first)); iOS 9–13 devices use it"
        )
    }
}
