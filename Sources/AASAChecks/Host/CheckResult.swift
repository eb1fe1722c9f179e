import AASAKit

/// How one check came out. Ordered by severity, so the worst of a list is
/// its `max()`.
public enum CheckStatus: String, Sendable, Hashable, Comparable, CaseIterable {
    /// Not run: not asked for, or an earlier check failed.
    case skip
    case pass
    /// Works today, but is fragile or tolerated only by some systems.
    case warn
    /// Apple's systems will not use the file.
    case fail

    public static func < (lhs: CheckStatus, rhs: CheckStatus) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// One line of a host report: a stable id users can grep for
/// (`http.redirect`), the outcome, and a sentence.
public struct CheckResult: Sendable, Hashable {
    public var id: String
    public var status: CheckStatus
    public var message: String

    public init(_ id: String, _ status: CheckStatus, _ message: String) {
        self.id = id
        self.status = status
        self.message = message
    }

    /// `{"id", "status", "message"}`.
    public var json: JSONValue {
        ["id": .string(id), "status": .string(status.rawValue), "message": .string(message)]
    }
}
