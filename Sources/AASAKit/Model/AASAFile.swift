/// An `apple-app-site-association` file as the system reads it.
///
/// Reading is lenient and never fails: values of the wrong type behave the
/// way docs/SEMANTICS.md says the system treats them (mostly: as absent).
/// Strict checking is the JSON Schema's and the lints' job.
public struct AASAFile: Sendable {
    /// The document; assigning it re-reads every service.
    public var json: JSONValue {
        didSet { self = AASAFile(json: json) }
    }
    /// The `applinks` service, `nil` when the file has no `applinks` object.
    public private(set) var appLinks: AppLinks?
    /// `webcredentials.apps`; `nil` when the service is absent.
    public private(set) var webCredentials: [String]?
    /// `appclips.apps`; `nil` when the service is absent.
    public private(set) var appClips: [String]?
    /// `activitycontinuation.apps`; `nil` when the service is absent.
    public private(set) var activityContinuation: [String]?

    /// Reads `json` the way the system does; never fails.
    public init(json: JSONValue) {
        self.json = json
        self.appLinks = json["applinks"]?.objectValue.map {
            AppLinks(object: $0, path: JSONPath.root.appending("applinks"))
        }
        self.webCredentials = Self.apps(of: json["webcredentials"])
        self.appClips = Self.apps(of: json["appclips"])
        self.activityContinuation = Self.apps(of: json["activitycontinuation"])
    }

    /// Every app ID the file names for `applinks`, in order of first
    /// appearance, after the precedence rules (`appIDs` beats `appID`).
    public var appLinksAppIDs: [String] {
        var seen = Set<String>()
        var ids: [String] = []
        for detail in appLinks?.details ?? [] {
            for id in detail.appIDs where seen.insert(id).inserted {
                ids.append(id)
            }
        }
        return ids
    }

    /// The `apps` list of a `{"apps": [...]}` service. A service that is
    /// present but malformed lists no apps; non-string entries are skipped.
    private static func apps(of service: JSONValue?) -> [String]? {
        guard let service else { return nil }
        return service["apps"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
}
