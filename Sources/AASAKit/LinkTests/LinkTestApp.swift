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

    /// Whether `appID` (as listed in a file) is this app. Prefixes are
    /// usually the ten-character Team ID but not always, so a bundle ID is
    /// compared with everything after the first dot.
    public func matches(appID: String) -> Bool {
        switch self {
        case .appID(let id):
            return appID == id
        case .bundleID(let id):
            guard let dot = appID.firstIndex(of: ".") else { return false }
            return appID[appID.index(after: dot)...] == id
        }
    }
}
