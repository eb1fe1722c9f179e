import AASAKit
import Foundation

/// Why Apple's CDN has no usable copy, in Apple's own words (its
/// `Apple-Failure-*` headers) and in plain words.
public struct CDNFailure: Sendable, Hashable {
    /// The CDN's status, `nil` when it could not be reached at all.
    public var status: Int?
    public var statusLine: String?
    /// `Apple-Failure-Reason`, e.g. `SWCERR00101 Bad HTTP Response: 403 Forbidden`.
    public var reason: String?
    /// `Apple-Failure-Details` (JSON as sent).
    public var details: String?
    /// `Apple-From`: what the CDN fetched.
    public var from: String?
    /// `Apple-Try-Direct`.
    public var tryDirect: String?
    /// `Cache-Control`, `Age`, `Expires`: failures are cached too.
    public var cacheControl: String?
    public var age: String?
    public var expires: String?
    /// What happened, for humans.
    public var explanation: String

    /// Reads a CDN error response.
    public init(response: FetchedResponse) {
        status = response.status
        statusLine = response.statusLine
        reason = response.header("Apple-Failure-Reason")
        details = response.header("Apple-Failure-Details")
        from = response.header("Apple-From")
        tryDirect = response.header("Apple-Try-Direct")
        cacheControl = response.header("Cache-Control")
        age = response.header("Age")
        expires = response.header("Expires")
        explanation = Self.explain(status: response.status, reason: reason)
    }

    /// A CDN that could not be fetched, or answered something unusable.
    public init(message: String, response: FetchedResponse? = nil) {
        if let response {
            self.init(response: response)
        } else {
            self.init(status: nil, explanation: message)
        }
        explanation = message
    }

    private init(status: Int?, explanation: String) {
        self.status = status
        self.explanation = explanation
    }

    /// The origin's status as Apple saw it, from `Bad HTTP Response: 403 Forbidden`.
    public var originStatus: Int? {
        guard let reason, let range = reason.range(of: "Bad HTTP Response: ") else { return nil }
        return Int(reason[range.upperBound...].prefix(3))
    }

    static func explain(status: Int, reason: String?) -> String {
        guard let reason else {
            return
                "Apple's CDN answered \(status) without an Apple-Failure-Reason: it may not have fetched this domain yet "
                + "(it fetches within about 24 hours of an install or update of an app that lists it)"
        }
        let origin = Self.originLine(reason)
        switch origin.status {
        case 403?:
            return
                "the CDN has no copy because your origin answered Apple's crawler with \(origin.line): it refuses AASA-Bot "
                + "(a firewall, bot protection, geo-blocking or authentication in front of the file); "
                + "allow the crawler, then wait for the cached failure to expire"
        case 404?, 410?:
            return
                "the CDN has no copy because your origin answered Apple with \(origin.line): the file was not there when Apple fetched it"
        case let code? where (300..<400).contains(code):
            return
                "the CDN has no copy because your origin answered Apple with a redirect (\(origin.line)); Apple does not follow redirects"
        case _?:
            return "the CDN has no copy because your origin answered Apple with \(origin.line) instead of 200"
        case nil where reason.localizedLowercase.contains("timeout"):
            return "the CDN has no copy because your origin did not answer Apple in time (\(reason))"
        case nil:
            return "the CDN has no copy: \(reason)"
        }
    }

    private static func originLine(_ reason: String) -> (status: Int?, line: String) {
        guard let range = reason.range(of: "Bad HTTP Response: ") else { return (nil, reason) }
        let line = String(reason[range.upperBound...])
        return (Int(line.prefix(3)), line)
    }

    /// The headers that were present, in a fixed order.
    public var headers: [(name: String, value: String)] {
        [
            ("Apple-Failure-Reason", reason), ("Apple-Failure-Details", details), ("Apple-From", from),
            ("Apple-Try-Direct", tryDirect), ("Cache-Control", cacheControl), ("Age", age), ("Expires", expires),
        ].compactMap { name, value in value.map { (name, $0) } }
    }

    /// `{"status"?, "explanation", "headers": {...}}`.
    public var json: JSONValue {
        var object = JSONObject()
        if let status { object["status"] = .number(Double(status)) }
        object["explanation"] = .string(explanation)
        if let originStatus { object["originStatus"] = .number(Double(originStatus)) }
        var headers = JSONObject()
        for (name, value) in self.headers {
            headers[name] = .string(value)
        }
        object["headers"] = .object(headers)
        return .object(object)
    }
}
