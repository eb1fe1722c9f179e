/// The responses that do not depend on a file, encoded once per server.
struct StaticResponses: Sendable {
    let badRequest: EncodedResponseSet
    let notFound: EncodedResponseSet
    let methodNotAllowed: EncodedResponseSet
    let uriTooLong: EncodedResponseSet
    /// `If-Match` or `If-Unmodified-Since` found the file changed.
    let preconditionFailed: EncodedResponseSet
    let requestHeaderFieldsTooLarge: EncodedResponseSet
    let serviceUnavailable: EncodedResponseSet

    init() {
        func make(
            _ status: EncodedResponse.Status,
            _ message: String,
            extra: [(String, String)] = []
        )
            -> EncodedResponseSet
        {
            let body = Array("{\"error\":\"\(message)\"}\n".utf8)
            return EncodedResponseSet(
                status: status,
                headers: [
                    ("Content-Type", "application/json"),
                    ("Cache-Control", "no-store"),
                    ("X-Content-Type-Options", "nosniff"),
                ] + extra,
                body: body
            )
        }
        badRequest = make(.badRequest, "bad request")
        notFound = make(.notFound, "not found")
        methodNotAllowed = make(.methodNotAllowed, "method not allowed", extra: [("Allow", "GET, HEAD")])
        uriTooLong = make(.uriTooLong, "request target too long")
        preconditionFailed = make(.preconditionFailed, "precondition failed")
        requestHeaderFieldsTooLarge = make(.requestHeaderFieldsTooLarge, "request header fields too large")
        serviceUnavailable = make(.serviceUnavailable, "too many connections", extra: [("Retry-After", "1")])
    }
}
