import AASAKit

/// The paths the origin answers. Everything else is a 404.
enum Route: Sendable, CaseIterable {
    case appleAppSiteAssociation
    case legacyAppleAppSiteAssociation
    case assetLinks

    var path: String { siteRoute.path }

    /// The same route in the layout AASAKit defines.
    var siteRoute: SiteRoute {
        switch self {
        case .appleAppSiteAssociation: .appleAppSiteAssociation
        case .legacyAppleAppSiteAssociation: .legacyAppleAppSiteAssociation
        case .assetLinks: .assetLinks
        }
    }

    /// Matches an origin-form target (`/path?query`); the query is ignored.
    @inline(__always)
    init?(target: Substring) {
        // `?` searched in the target's contiguous bytes: the generic search
        // through `Substring.UTF8View` cost more than the rest of routing.
        let path: Substring
        if let length = target.utf8.withContiguousStorageIfAvailable({ $0.firstIndex(of: UInt8(ascii: "?")) }) {
            path = length.map { Substring(target.utf8.prefix($0)) } ?? target
        } else {
            path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target
        }
        switch SiteRoute(path: path) {
        case .appleAppSiteAssociation: self = .appleAppSiteAssociation
        case .legacyAppleAppSiteAssociation: self = .legacyAppleAppSiteAssociation
        case .assetLinks: self = .assetLinks
        case nil: return nil
        }
    }
}
