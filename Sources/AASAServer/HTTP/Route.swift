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

    /// Matches an origin-form target (`/path?query`) as the request gave
    /// it; the query is ignored. Compares bytes: every path is ASCII with no
    /// other canonically equivalent spelling, so this is `SiteRoute(path:)`'s
    /// string equality without building a `Substring` per request.
    @inline(__always)
    init?(originForm target: String) {
        let matched = target.utf8.withContiguousStorageIfAvailable { bytes -> Route? in
            let length = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
            let path = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[..<length])
            if Self.appleAppSiteAssociation.isPath(path) { return .appleAppSiteAssociation }
            if Self.legacyAppleAppSiteAssociation.isPath(path) { return .legacyAppleAppSiteAssociation }
            if Self.assetLinks.isPath(path) { return .assetLinks }
            return nil
        }
        switch matched {
        case .some(let route?): self = route
        case .some(nil): return nil
        case nil: self.init(target: Substring(target))
        }
    }

    /// Whether `bytes` are exactly this route's path.
    @inline(__always)
    private func isPath(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let path = self.path
        guard path.utf8.count == bytes.count else { return false }
        return path.utf8.withContiguousStorageIfAvailable { bytes.elementsEqual($0) } ?? path.utf8.elementsEqual(bytes)
    }

    /// Matches an origin-form target (`/path?query`); the query is ignored.
    init?(target: Substring) {
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target
        switch SiteRoute(path: path) {
        case .appleAppSiteAssociation: self = .appleAppSiteAssociation
        case .legacyAppleAppSiteAssociation: self = .legacyAppleAppSiteAssociation
        case .assetLinks: self = .assetLinks
        case nil: return nil
        }
    }
}
