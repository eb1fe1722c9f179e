import Logging
import NIOCore
import NIOHTTP1

/// What the access log keeps of a request head, taken when the head arrives
/// (only when the access log is on).
struct AccessLogRequest {
    let method: String
    let target: String
    let host: String?
    let userAgent: String?
    let start: NIODeadline

    init(_ head: HTTPRequestHead) {
        method = head.method.rawValue
        target = head.uri
        host = head.headers.first(name: "host")
        // Teams look for Apple's crawler here (`AASA-Bot/1.0.0`).
        userAgent = head.headers.first(name: "user-agent")
        start = .now()
    }
}

/// One access-log line: `request` with the client, what it asked for and
/// what it got.
///
/// A line answers exactly one request: when the decoder rejected the bytes
/// (`request` is `nil`) the request fields are `-` and `http.error` says
/// why, instead of repeating the previous request's host and target. All
/// request-derived values are plain metadata strings; the log handler
/// escapes them.
struct AccessLogLine {
    let client: String
    let request: AccessLogRequest?
    let status: EncodedResponse.Status
    let bytes: Int
    let error: Error?

    var metadata: Logger.Metadata {
        var metadata: Logger.Metadata = [
            "http.client": .string(client),
            "http.method": .string(request?.method ?? "-"),
            "http.host": .string(request?.host ?? "-"),
            "http.target": .string(request?.target ?? "-"),
            "http.user_agent": .string(request?.userAgent ?? "-"),
            "http.status": .stringConvertible(status.rawValue),
            "http.bytes": .stringConvertible(bytes),
        ]
        if let request {
            let duration = NIODeadline.now() - request.start
            metadata["http.duration_us"] = .stringConvertible(duration.nanoseconds / 1000)
        }
        if let error {
            metadata["http.error"] = .string(Self.describe(error))
        }
        return metadata
    }

    func emit(to logger: Logger) {
        logger.info("request", metadata: metadata)
    }

    /// A short stable name for why a request was rejected.
    static func describe(_ error: Error) -> String {
        switch error {
        case RequestHeadError.requestLineTooLong: "request-line-too-long"
        case RequestHeadError.malformedRequestLine: "malformed-request-line"
        case let parserError as HTTPParserError: "\(parserError)"
        default: "\(type(of: error))"
        }
    }
}
