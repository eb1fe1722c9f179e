/// The paths the origin answers. Everything else is a 404.
enum Route: Sendable, CaseIterable {
    case appleAppSiteAssociation
    case legacyAppleAppSiteAssociation
    case assetLinks

    var path: String {
        switch self {
        case .appleAppSiteAssociation: "/.well-known/apple-app-site-association"
        case .legacyAppleAppSiteAssociation: "/apple-app-site-association"
        case .assetLinks: "/.well-known/assetlinks.json"
        }
    }

    /// Matches an origin-form target (`/path?query`); the query is ignored.
    @inline(__always)
    init?(target: Substring) {
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target
        switch path {
        case "/.well-known/apple-app-site-association": self = .appleAppSiteAssociation
        case "/apple-app-site-association": self = .legacyAppleAppSiteAssociation
        case "/.well-known/assetlinks.json": self = .assetLinks
        default: return nil
        }
    }
}
