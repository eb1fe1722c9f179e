import Testing

@testable import AASAServer
@testable import aasa

/// What `aasa dev` prints, for the cases the process test does not reach.
@Suite("aasa dev instructions")
struct DevInstructionsTests {
    static func text(hosts: [SiteDirectoryHost], https: Int = 8443, addresses: [LANAddresses.Address] = []) -> String {
        DevInstructions(
            hosts: hosts,
            httpPort: 8080,
            httpsPort: https,
            caDirectory: DevCADirectory(path: "/home/dev/.config/aasa/dev-ca"),
            addresses: addresses
        ).text
    }

    @Test func aWildcardDirectoryShowsOneNameUnderItAndItsWildcardEntitlement() {
        let text = Self.text(hosts: [SiteDirectoryHost(name: "*.brand.example", aliases: [])])
        #expect(text.contains("https://www.brand.example:8443/.well-known/apple-app-site-association"))
        #expect(text.contains("entitlement: applinks:*.brand.example?mode=developer"))
        #expect(!text.contains("https://*."))
    }

    @Test func port443IsCalledOutOnlyWhenItIsNotTheHTTPSPort() {
        let host = SiteDirectoryHost(name: "brand.example", aliases: [])
        #expect(Self.text(hosts: [host]).contains("forward 443 to 8443"))
        #expect(!Self.text(hosts: [host], https: 443).contains("forward 443"))
    }

    @Test func addressesOrNoNetworkAreSaid() {
        let address = LANAddresses.Address(interface: "en0", ip: "192.168.1.20", isIPv4: true)
        #expect(Self.text(hosts: [], addresses: [address]).contains("  192.168.1.20  (en0)"))
        #expect(Self.text(hosts: []).contains("No network address found"))
        #expect(Self.text(hosts: []).hasSuffix("aasa dev: ready: http port 8080, https port 8443. Ctrl-C stops."))
    }

    /// Every machine has a loopback interface, so the filter is exercised.
    @Test func loopbackAndLinkLocalAreNeverOffered() {
        for address in LANAddresses.current() {
            #expect(!address.ip.hasPrefix("127."))
            #expect(address.ip != "::1")
            #expect(!address.ip.lowercased().hasPrefix("fe80:"))
        }
    }
}
