/// A file a site serves, by its name in a host directory of the served
/// layout (`<dir>/<host>/apple-app-site-association`).
///
/// The layout is defined once, here: the origin reads it, `validate`,
/// `test-links` and the checks find files and routes through it.
public enum SiteFile: String, Sendable, CaseIterable, Hashable {
    /// Apple's association file: served without an extension.
    case appleAppSiteAssociation = "apple-app-site-association"
    /// Android's Digital Asset Links statement list.
    case assetLinks = "assetlinks.json"

    /// The file's name inside a host directory.
    public var fileName: String { rawValue }

    /// The file a name in a host directory stands for, if any.
    public init?(fileName: String) {
        self.init(rawValue: fileName)
    }

    /// The routes that serve this file, the canonical one first.
    public var routes: [SiteRoute] {
        SiteRoute.allCases.filter { $0.file == self }
    }
}
