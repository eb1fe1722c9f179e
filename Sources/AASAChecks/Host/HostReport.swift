import AASAKit

/// Everything `aasa check` found about one host, check by check.
public struct HostReport: Sendable {
    /// The host whose file was checked.
    public var host: String
    /// The URL fetched for the file (always naming the host).
    public var url: String
    /// The address connected to instead of the host's own (`--base-url`,
    /// `--resolve`), as `address:port`.
    public var connectedTo: String?
    public var checks: [CheckResult]

    public init(host: String, url: String, connectedTo: String? = nil, checks: [CheckResult]) {
        self.host = host
        self.url = url
        self.connectedTo = connectedTo
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

    /// `{"host", "url", "connectedTo"?, "status", "checks": [...]}`.
    public var json: JSONValue {
        var object = JSONObject()
        object["host"] = .string(host)
        object["url"] = .string(url)
        if let connectedTo { object["connectedTo"] = .string(connectedTo) }
        object["status"] = .string(status.rawValue)
        object["checks"] = .array(checks.map(\.json))
        return .object(object)
    }
}
