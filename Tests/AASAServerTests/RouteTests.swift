import Testing

@testable import AASAServer

/// ``Route``'s byte compare of origin-form targets against the paths
/// AASAKit defines.
@Suite("Routes")
struct RouteTests {
    /// The byte compare and the `Substring` one agree on every path, with a
    /// query, and on near misses of each (one byte short, one more, a case
    /// changed, a trailing slash).
    @Test(arguments: Route.allCases)
    func originFormMatchesTheSubstringMatch(route: Route) {
        let path = route.siteRoute.path
        let targets = [
            path, path + "?x=1", path + "?", String(path.dropLast()), path + "x", path + "/",
            path.uppercased(), "/" + path, String(path.dropFirst()),
        ]
        for target in targets {
            #expect(Route(originForm: target) == Route(target: Substring(target)), "\(target)")
        }
        #expect(Route(originForm: path) == route)
        #expect(Route(originForm: path + "?q") == route)
    }

    /// Targets that are no route: empty, only a query, a path with a NUL
    /// byte before the query (a byte compare must not stop at it).
    @Test func nonRoutesAreNil() {
        for target in [
            "", "?", "/?", "/.well-known/apple-app-site-association\u{0}x", "/apple-app-site-association\u{0}",
        ] {
            #expect(Route(originForm: target) == nil, "\(target.debugDescription)")
        }
        #expect(Route(originForm: "/apple-app-site-association?\u{0}") == .legacyAppleAppSiteAssociation)
    }
}
