/// A path the origin answers, and the file it serves there. Every other path
/// is a 404.
public enum SiteRoute: Sendable, CaseIterable, Hashable {
    /// `/.well-known/apple-app-site-association`: what current systems fetch.
    case appleAppSiteAssociation
    /// `/apple-app-site-association`: fetched by iOS 9–13 when the
    /// `.well-known` one fails.
    case legacyAppleAppSiteAssociation
    /// `/.well-known/assetlinks.json`: what Android fetches.
    case assetLinks

    /// The path, as requested.
    public var path: String { staticPath.description }

    /// ``path`` as bytes in the binary: compared without building a string.
    /// Inlinable: the origin compares every request's target with it.
    @inlinable
    public var staticPath: StaticString {
        switch self {
        case .appleAppSiteAssociation: "/.well-known/apple-app-site-association"
        case .legacyAppleAppSiteAssociation: "/apple-app-site-association"
        case .assetLinks: "/.well-known/assetlinks.json"
        }
    }

    /// The file served at this path.
    public var file: SiteFile {
        switch self {
        case .appleAppSiteAssociation, .legacyAppleAppSiteAssociation: .appleAppSiteAssociation
        case .assetLinks: .assetLinks
        }
    }

    /// The route of an exact path (no query), or nil. Inlinable: the origin
    /// calls it for every request.
    @inlinable
    public init?(path: Substring) {
        switch path {
        case "/.well-known/apple-app-site-association": self = .appleAppSiteAssociation
        case "/apple-app-site-association": self = .legacyAppleAppSiteAssociation
        case "/.well-known/assetlinks.json": self = .assetLinks
        default: return nil
        }
    }
}
