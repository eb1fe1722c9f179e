import AASAKit
import Foundation

/// How old Apple's CDN copy (or cached failure) is, and the earliest moment
/// the CDN will ask the origin again, from the answer's own cache headers.
///
/// The CDN cannot be purged: a fixed file goes live only once the cached
/// copy expires. Its lifetime is `Cache-Control: max-age` (or `s-maxage`,
/// which shared caches prefer) counted from when the copy was made
/// (`Date` − `Age`), or else `Expires`; with neither, Apple promises only
/// "within about 24 hours".
public struct CDNFreshness: Sendable, Hashable {
    /// What the CDN holds for the domain.
    public enum Subject: Sendable, Hashable {
        /// A copy of the file (a 200 answer).
        case copy
        /// No copy: the answer is a failure the CDN caches like a copy, with
        /// its status line (`404 Not Found`).
        case failure(statusLine: String)
    }

    /// Whether the headers describe a copy or a cached failure.
    public var subject: Subject
    /// `Age`: seconds the copy has been in the CDN's cache.
    public var age: Int?
    /// The lifetime the CDN gave the copy (`s-maxage`, else `max-age`), seconds.
    public var maxAge: Int?
    /// The CDN's clock (`Date`), else this machine's when the answer arrived.
    public var date: Date
    /// `Expires`, when sent and parseable.
    public var expires: Date?

    /// Reads the freshness headers of a CDN answer received at `receivedAt`.
    public init(response: FetchedResponse, receivedAt: Date) {
        subject = response.status == 200 ? .copy : .failure(statusLine: response.statusLine)
        age = response.header("Age").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) }
        maxAge = Self.lifetime(cacheControl: response.header("Cache-Control"))
        date = response.header("Date").flatMap(Self.parseHTTPDate) ?? receivedAt
        expires = response.header("Expires").flatMap(Self.parseHTTPDate)
    }

    public init(age: Int?, maxAge: Int?, date: Date, expires: Date?, subject: Subject = .copy) {
        self.subject = subject
        self.age = age
        self.maxAge = maxAge
        self.date = date
        self.expires = expires
    }

    /// When the CDN made its copy (`Date` − `Age`; `Date` without `Age`).
    public var copiedAt: Date { date - TimeInterval(age ?? 0) }

    /// The earliest moment the CDN refetches from the origin: the copy's
    /// expiry. `nil` when the answer carries no lifetime.
    public var refetchNotBefore: Date? {
        if let maxAge { return copiedAt + TimeInterval(maxAge) }
        return expires
    }

    /// `copy 3 h 12 min old (Age 11520); kept for 24 h (max-age 86400): refetched no earlier than 2025-01-01T12:00:00Z (in 20 h 48 min)`;
    /// for a cached failure, `has no copy: its 404 Not Found answer is cached, 3 h 12 min old (Age 11520); …`.
    public var summary: String {
        var text: String
        switch subject {
        case .copy:
            text = "copy \(Self.span(TimeInterval(age ?? 0))) old"
            text += age.map { " (Age \($0))" } ?? " (no Age header)"
        case .failure(let statusLine):
            // No copy exists, so no copy's age may be shown: the age is the
            // cached failure's, and unknown without an Age header.
            text = "has no copy: its \(statusLine) answer "
            text += age.map { "is cached, \(Self.span(TimeInterval($0))) old (Age \($0))" } ?? "carries no Age header"
        }
        if let maxAge {
            text += "; kept for \(Self.span(TimeInterval(maxAge))) (max-age \(maxAge))"
        }
        guard let refetch = refetchNotBefore else {
            return text + "; no cache lifetime sent: Apple only says the CDN refreshes within about 24 hours"
        }
        let remaining = refetch.timeIntervalSince(date)
        let when = remaining > 0 ? "in \(Self.span(remaining))" : "already due"
        let refetches = subject == .copy ? "refetches" : "asks the origin again"
        return text + ": Apple's CDN \(refetches) no earlier than \(refetch.formatted(.iso8601)) (\(when))"
    }

    /// `{"of": "copy" | "failure", "age"?, "maxAge"?, "copiedAt", "refetchNotBefore"?}`;
    /// for a failure, `copiedAt` is when the CDN stored the failure.
    public var json: JSONValue {
        var object = JSONObject()
        if case .failure = subject {
            object["of"] = "failure"
        } else {
            object["of"] = "copy"
        }
        if let age { object["age"] = .number(Double(age)) }
        if let maxAge { object["maxAge"] = .number(Double(maxAge)) }
        object["copiedAt"] = .string(copiedAt.formatted(.iso8601))
        if let refetch = refetchNotBefore { object["refetchNotBefore"] = .string(refetch.formatted(.iso8601)) }
        return .object(object)
    }

    /// `s-maxage` wins over `max-age` for a shared cache such as a CDN.
    static func lifetime(cacheControl: String?) -> Int? {
        guard let cacheControl else { return nil }
        var directives: [String: Int] = [:]
        for part in cacheControl.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            guard pair.count == 2, let seconds = Int(pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
            else {
                continue
            }
            directives[pair[0]] = max(0, seconds)
        }
        return directives["s-maxage"] ?? directives["max-age"]
    }

    /// RFC 9110's IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the only
    /// form a current server sends.
    static func parseHTTPDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }

    /// `3 h 12 min`, `45 s`, `2 d 1 h`.
    static func span(_ interval: TimeInterval) -> String {
        let seconds = Int(interval.rounded())
        if seconds < 60 { return "\(seconds) s" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes) min" }
        let hours = minutes / 60
        if hours < 48 { return minutes % 60 == 0 ? "\(hours) h" : "\(hours) h \(minutes % 60) min" }
        return hours % 24 == 0 ? "\(hours / 24) d" : "\(hours / 24) d \(hours % 24) h"
    }
}
