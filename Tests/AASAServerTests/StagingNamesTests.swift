import AASAKit
import Foundation
import Testing

@testable import AASAServer

/// `hosts.staging`: `{label}.aasa-staging.example.com` serves every host
/// under a one-label spelling of its name, with no directory per brand.
@Suite("Staging names")
struct StagingNamesTests {
    static let pattern = "{label}.aasa-staging.example.com"

    @Test(arguments: [
        ("lieferando-de", "lieferando.de"),
        ("www-lieferando-de", "www.lieferando.de"),
        ("my--brand-de", "my-brand.de"),
        ("a---b", "a-.b"),
        ("plain", "plain"),
    ])
    func aLabelSpellsAHost(label: String, host: String) throws {
        let rule = try #require(StagingNames.Rule(Self.pattern))
        #expect(rule.target(of: label + ".aasa-staging.example.com") == host)
    }

    @Test func theStagingNameOfAHostRoundTrips() throws {
        let rule = try #require(StagingNames.Rule(Self.pattern))
        for host in ["lieferando.de", "my-brand.co.uk", "a.b-c.example"] {
            let name = rule.name(for: host)
            #expect(name.hasSuffix(".aasa-staging.example.com"))
            #expect(rule.target(of: name) == host, "\(name)")
        }
    }

    @Test func namesOutsideThePatternDoNotMatch() throws {
        let rule = try #require(StagingNames.Rule(Self.pattern))
        #expect(rule.target(of: "aasa-staging.example.com") == nil)
        #expect(rule.target(of: ".aasa-staging.example.com") == nil)
        // Two labels in place of one: not a staging name.
        #expect(rule.target(of: "a.lieferando-de.aasa-staging.example.com") == nil)
        #expect(rule.target(of: "lieferando-de.example.com") == nil)
        #expect(rule.target(of: "lieferando-de.evil-aasa-staging.example.com") == nil)
    }

    @Test(arguments: [
        "aasa-staging.example.com", "{label}{label}.example", "x{label}.example", "{label}x.example",
        "{label}.exa mple",
    ])
    func aPatternWithoutOneWholeLabelIsRefused(pattern: String) {
        #expect(StagingNames.Rule(pattern) == nil)
    }

    @Test func theLoaderReportsAMalformedPattern() throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(), host: "a.example")
        let outcome = try SiteLoader(
            configuration: site.configuration(hosts: .init(staging: ["staging.example.com"]))
        ).load(previous: .empty, force: true)
        let issue = try #require(outcome.issues.first)
        #expect(issue.path == "hosts.staging")
        #expect(issue.message.contains("{label}"))
    }

    /// End to end: the staging name gets the production host's file; a host
    /// with a directory of that name wins; a label naming nothing gets 404,
    /// or the default host when one is configured.
    @Test func servesTheProductionFileUnderItsStagingName() async throws {
        let site = try TemporarySite()
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.lieferando.app"), host: "lieferando.de")
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.mybrand.app"), host: "my-brand.co.uk")
        try site.write(
            SampleFile.aasa(app: "ABCDE12345.com.override.app"),
            host: "thuisbezorgd-nl.aasa-staging.example.com"
        )
        try site.write(SampleFile.aasa(app: "ABCDE12345.com.thuisbezorgd.app"), host: "thuisbezorgd.nl")
        let configuration = site.configuration(hosts: .init(staging: [Self.pattern]))
        let answers = try await RunningOrigin.with(configuration) { origin in
            var answers: [String: (status: Int, body: String)] = [:]
            for host in [
                "lieferando-de.aasa-staging.example.com", "LIEFERANDO-DE.aasa-staging.example.com:443",
                "my--brand-co-uk.aasa-staging.example.com", "thuisbezorgd-nl.aasa-staging.example.com",
                "nobody-de.aasa-staging.example.com", "lieferando.de",
            ] {
                let response = try #require(try await origin.client.exchange(HTTPSListenerTests.get(host)).first)
                answers[host] = (Int(response.status), response.bodyText)
            }
            return answers
        }
        #expect(answers["lieferando-de.aasa-staging.example.com"]?.body.contains("com.lieferando.app") == true)
        #expect(answers["LIEFERANDO-DE.aasa-staging.example.com:443"]?.body.contains("com.lieferando.app") == true)
        #expect(answers["my--brand-co-uk.aasa-staging.example.com"]?.body.contains("com.mybrand.app") == true)
        #expect(answers["thuisbezorgd-nl.aasa-staging.example.com"]?.body.contains("com.override.app") == true)
        #expect(answers["nobody-de.aasa-staging.example.com"]?.status == 404)
        #expect(answers["lieferando.de"]?.body.contains("com.lieferando.app") == true)
        var withDefault = configuration
        withDefault.hosts.defaultHost = "thuisbezorgd.nl"
        let fallback = try await RunningOrigin.with(withDefault) { origin in
            try await origin.client.exchange(HTTPSListenerTests.get("nobody-de.aasa-staging.example.com")).first?
                .bodyText
        }
        #expect(fallback?.contains("com.thuisbezorgd.app") == true)
    }
}
