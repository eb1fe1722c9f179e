/// The `http.content-type` rule: `application/json` passes; anything else is
/// a warning rather than a failure, because Apple's systems tolerate some
/// other types (big sites serve `application/octet-stream` and work).
enum ContentTypeCheck {
    static func check(_ response: FetchedResponse, id: String = "http.content-type") -> CheckResult {
        switch response.mediaType {
        case "application/json":
            return CheckResult(id, .pass, "application/json")
        case nil:
            return CheckResult(id, .warn, "no Content-Type; serve application/json")
        case let other?:
            return CheckResult(
                id,
                .warn,
                "served as \(other); Apple expects application/json (some other types are tolerated)"
            )
        }
    }
}
