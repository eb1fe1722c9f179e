import AASAKit

/// Everything `aasa check` found about one host, check by check.
public struct HostReport: Sendable {
    /// The host whose file was checked.
    public var host: String
    /// The URL fetched for the file.
    public var url: String
    public var checks: [CheckResult]

    public init(host: String, url: String, checks: [CheckResult]) {
        self.host = host
        self.url = url
        self.checks = checks
    }

    /// The worst status of any check.
    public var status: CheckStatus { checks.map(\.status).max() ?? .skip }

    public func check(_ id: String) -> CheckResult? {
        checks.first { $0.id == id }
    }

    /// How many checks ended with `status`.
    public func count(_ status: CheckStatus) -> Int {
        checks.count { $0.status == status }
    }

    /// `{"host", "url", "status", "checks": [...]}`.
    public var json: JSONValue {
        [
            "host": .string(host),
            "url": .string(url),
            "status": .string(status.rawValue),
            "checks": .array(checks.map(\.json)),
        ]
    }
}
