import AASAKit
import Testing

@Suite("Served layout: host names, directories, routes")
struct HostNameTests {
    @Test(arguments: [
        ("example.com", "example.com"),
        ("Example.COM", "example.com"),
        ("example.com:8080", "example.com"),
        ("example.com.", "example.com"),
        ("EXAMPLE.com.:443", "example.com"),
        ("example.com:", "example.com"),
        ("[::1]", "[::1]"),
        ("[::1]:8080", "[::1]"),
        ("[2001:DB8::1]:443", "[2001:db8::1]"),
        ("127.0.0.1:8080", "127.0.0.1"),
        ("localhost", "localhost"),
    ])
    func accepts(header: String, expected: String) {
        #expect(HostName(authority: header)?.value == expected)
    }

    @Test(arguments: [
        "", ".", "..", "../../etc", "a/b", "exa mple.com", "a\u{0}b", "café.example", "example.com:abc",
        "a..b", "-a.com", "[zz::1]", "[::1", "[::1]x", "example.com:123456", "a@b.com",
        String(repeating: "a", count: 64) + ".com",
    ])
    func rejects(header: String) {
        #expect(HostName(authority: header) == nil)
    }

    /// Four 63-byte labels and their dots, cut to `length` bytes.
    static func longName(_ length: Int) -> String {
        String(Array(repeating: String(repeating: "a", count: 63), count: 4).joined(separator: ".").prefix(length))
    }

    /// The DNS name bounds, each side of them, also inside a longer string
    /// (a `Substring` of a header, as the server reads it).
    @Test(
        arguments: [
            (String(repeating: "a", count: 63) + ".com", true), (String(repeating: "a", count: 64), false),
            (longName(253), true), (longName(254), false), (longName(253) + ".", true),
            ("a-b_c.Example.", true), ("a.-b", true), ("-", false), ("a.b-", true), ("a.b!", false),
        ] as [(String, Bool)]
    )
    func dnsNameBounds(name: String, valid: Bool) {
        #expect((HostName(authority: name) != nil) == valid)
        let inside = ("x" + name + "y").dropFirst().dropLast()
        #expect((HostName(authority: inside) != nil) == valid)
    }

    @Test func directoryNamesCannotCarryAPort() {
        #expect(HostName(name: "example.com:8080") == nil)
        #expect(HostName(name: "example.com")?.value == "example.com")
    }

    @Test(arguments: [
        ("*.brand.example", "*.brand.example"), ("brand.example", "brand.example"), ("Brand.Example", "brand.example"),
    ])
    func hostDirectoryNames(directory: String, expected: String) {
        #expect(HostDirectoryName(directory)?.name == expected)
    }

    @Test(arguments: ["*.example", "*", "*.", "a.*.example", ".hidden", "x y"])
    func invalidHostDirectoryNames(directory: String) {
        #expect(HostDirectoryName(directory) == nil)
    }

    @Test func aWildcardKnowsItsSuffix() {
        #expect(HostDirectoryName("*.Brand.Example")?.wildcardSuffix == "brand.example")
        #expect(HostDirectoryName("brand.example")?.wildcardSuffix == nil)
    }

    @Test func everyRoutePathParsesBackToItsRoute() {
        for route in SiteRoute.allCases {
            #expect(SiteRoute(path: Substring(route.path)) == route)
        }
        #expect(SiteRoute(path: "/.well-known/apple-app-site-association/") == nil)
        #expect(SiteFile.appleAppSiteAssociation.routes == [.appleAppSiteAssociation, .legacyAppleAppSiteAssociation])
        #expect(SiteFile.assetLinks.routes == [.assetLinks])
    }
}
