/// A run that cannot give a meaningful answer: one usage error instead of
/// a failing line per URL (or, worse, a pass with nothing tested).
public enum LinkTestSetupError: Error, Sendable, CustomStringConvertible {
    /// The list has no entry at all.
    case emptyList
    /// The run is restricted to one host and no URL of the list is for it.
    case nothingToTest(domain: String, hostsInList: [String])
    /// No app was given and the files do not list exactly one.
    case noAppGiven(listed: [String], looksLikeLinksFile: [String])
    /// An app was given that none of the files involved lists in `applinks`.
    case unknownApps([UnknownApp])

    public var description: String {
        description(namingRunApp: { app in "the \(app.isBundleID ? "bundle ID" : "app ID") \(app)" })
    }

    /// The message, with the app given for the whole run named by
    /// `namingRunApp` (the CLI names its flag: `--bundle-id com.x`).
    public func description(namingRunApp: (LinkTestApp) -> String) -> String {
        switch self {
        case .emptyList:
            return "the links list has no URL"
        case .nothingToTest(let domain, let hosts):
            return "no URL of the list is for \(domain) (its URLs are for \(hosts.joined(separator: ", ")))"
        case .noAppGiven(let listed, let linksFiles):
            var text =
                listed.isEmpty
                ? "the association files list no app in applinks.details"
                : "name the app to test: the files list several in applinks.details (\(listed.joined(separator: ", ")))"
            for file in linksFiles {
                text += "; \(file) looks like a links file, not an association file"
            }
            return text
        case .unknownApps(let apps):
            return apps.map { $0.description(namingRunApp: namingRunApp) }.joined(separator: "\n")
        }
    }
}

/// An app given for a run that no file involved lists, with where it was
/// given and the likeliest fix.
public struct UnknownApp: Sendable {
    /// Where the app was given.
    public enum Source: Sendable, Hashable {
        /// For the whole run (the CLI's `--bundle-id` / `--app-id`).
        case run
        /// By an entry of a links file.
        case entry(file: String?, path: JSONPath)
    }

    /// What the user most likely meant.
    public enum Suggestion: Sendable, Hashable {
        /// An app ID was given that is a bundle ID: the file lists `listedAs`.
        case bundleID(String, listedAs: String)
        /// A bundle ID was given that is a full app ID.
        case appID(String)
        /// A listed app whose ID is a small edit away.
        case similar(LinkTestApp)
        /// The app is listed, but under another service, which opens no link.
        case otherService(String, appID: String)
    }

    public var app: LinkTestApp
    public var sources: [Source]
    /// The app IDs the files list in `applinks.details`.
    public var listed: [String]
    public var suggestion: Suggestion?

    /// The message; `namingRunApp` spells how an app is given for the whole
    /// run (the CLI: `--bundle-id com.example.app`), for the suggested fix.
    public func description(namingRunApp: (LinkTestApp) -> String) -> String {
        let kind = app.isBundleID ? "bundle ID" : "app ID"
        let places = sources.compactMap { source -> String? in
            guard case .entry(let file, let path) = source else { return nil }
            return "\(file.map { "\($0): " } ?? "")\(path)"
        }
        let place = places.isEmpty ? "" : " (\(places.joined(separator: ", ")))"
        let listing = listed.isEmpty ? "none is listed" : "listed: \(listed.joined(separator: ", "))"
        var text = "\(kind) \(app)\(place) is in no file's applinks.details (\(listing))"
        // The fix is spelt the way the app was given: a flag, or an entry key.
        func spell(_ app: LinkTestApp) -> String {
            if sources.contains(.run) { return namingRunApp(app) }
            return
                "\(JSONValue.string(app.isBundleID ? "bundleID" : "appID").serialized()): \(JSONValue.string(app.description).serialized())"
        }
        switch suggestion {
        case nil:
            break
        case .bundleID(let bundleID, let listedAs)?:
            text += "; \(app) is a bundle ID (listed as \(listedAs)): use \(spell(.bundleID(bundleID)))"
        case .appID(let appID)?:
            text += "; \(app) is a full app ID (team prefix included): use \(spell(.appID(appID)))"
        case .similar(let similar)?:
            text += "; did you mean \(similar)?"
        case .otherService(let service, let appID)?:
            text += "; \(appID) is listed under \(service) only, which opens no link"
        }
        return text
    }
}
