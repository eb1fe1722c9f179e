import AASAKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The paths the origin answers. Everything else is a 404.
enum Route: Sendable, CaseIterable {
    case appleAppSiteAssociation
    case legacyAppleAppSiteAssociation
    case assetLinks

    /// The same route in the layout AASAKit defines.
    var siteRoute: SiteRoute {
        switch self {
        case .appleAppSiteAssociation: .appleAppSiteAssociation
        case .legacyAppleAppSiteAssociation: .legacyAppleAppSiteAssociation
        case .assetLinks: .assetLinks
        }
    }

    /// Matches an origin-form target (`/path?query`) as the request gave
    /// it; the query is ignored. Compares bytes (`memchr`, `memcmp`): every
    /// path is ASCII with no other canonically equivalent spelling, so this
    /// is `SiteRoute(path:)`'s string equality without building a
    /// `Substring` per request.
    @inline(__always)
    init?(originForm target: String) {
        let matched = target.utf8.withContiguousStorageIfAvailable { bytes -> Route? in
            guard let start = UnsafeRawPointer(bytes.baseAddress) else { return nil }
            let query = memchr(start, Int32(UInt8(ascii: "?")), bytes.count)
            let length = query.map { start.distance(to: $0) } ?? bytes.count
            if Self.appleAppSiteAssociation.isPath(start, length) { return .appleAppSiteAssociation }
            if Self.legacyAppleAppSiteAssociation.isPath(start, length) { return .legacyAppleAppSiteAssociation }
            if Self.assetLinks.isPath(start, length) { return .assetLinks }
            return nil
        }
        switch matched {
        case .some(let route?): self = route
        case .some(nil): return nil
        case nil: self.init(target: Substring(target))
        }
    }

    /// Whether the `length` bytes at `start` are exactly this route's path.
    @inline(__always)
    private func isPath(_ start: UnsafeRawPointer, _ length: Int) -> Bool {
        let path = siteRoute.staticPath
        return path.utf8CodeUnitCount == length && memcmp(path.utf8Start, start, length) == 0
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
