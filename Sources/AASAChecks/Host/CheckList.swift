/// The checks of one run in their fixed order; a check never recorded is
/// reported as skipped, so every report has the same ids.
struct CheckList {
    static let order = [
        "connect", "tls.trusted", "tls.expiry", "http.redirect", "http.status", "http.content-type", "file.size",
        "json.valid", "aasa.schema", "aasa.lints", "legacy-path",
    ]
    var results: [CheckResult] = []

    mutating func add(_ id: String, _ status: CheckStatus, _ message: String) {
        results.append(CheckResult(id, status, message))
    }

    mutating func add(_ result: CheckResult) {
        results.append(result)
    }

    func completed(skipping reason: String) -> [CheckResult] {
        let fixed = Self.order.map { id in
            results.first { $0.id == id } ?? CheckResult(id, .skip, reason)
        }
        return fixed + results.filter { !Self.order.contains($0.id) }
    }
}
