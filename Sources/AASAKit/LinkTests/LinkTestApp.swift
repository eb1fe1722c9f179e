/// The app a link test is run for.
public enum LinkTestApp: Sendable, Hashable, CustomStringConvertible {
    /// A full app ID with its team prefix: `ABCDE12345.com.example.app`.
    case appID(String)
    /// A bundle ID, matched against the file's app IDs without their prefix.
    case bundleID(String)

    public var description: String {
        switch self {
        case .appID(let id): id
        case .bundleID(let id): id
        }
    }

    public var isBundleID: Bool {
        if case .bundleID = self { return true }
        return false
    }

    /// Whether `appID` (as listed in a file) is this app. Prefixes are
    /// usually the ten-character Team ID but not always, so a bundle ID is
    /// compared with everything after the first dot.
    public func matches(appID: String) -> Bool {
        switch self {
        case .appID(let id):
            return appID == id
        case .bundleID(let id):
            guard let bundleID = Self.bundleID(of: appID) else { return false }
            return bundleID == id
        }
    }

    /// The app IDs of `listed` that are this app, in order.
    public func matching(_ listed: [String]) -> [String] {
        listed.filter { matches(appID: $0) }
    }

    /// Everything after the first dot of an app ID; `nil` without a dot.
    static func bundleID(of appID: String) -> Substring? {
        guard let dot = appID.firstIndex(of: ".") else { return nil }
        return appID[appID.index(after: dot)...]
    }
}
