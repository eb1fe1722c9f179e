import Foundation
import Testing

@testable import AASAKit

/// The file and statement rules of docs/ANDROID.md: every error is one Google
/// rejects the whole file for; warnings are what it accepts but is almost
/// certainly a mistake.
@Suite("assetlinks.json validator")
struct AssetLinksValidatorTests {
    let validator = AssetLinksValidator()
    typealias Sample = AssetLinksSample

    @Test func wellFormedFileHasNoFindings() throws {
        let report = validator.validate(bytes: try validateFixture("assetlinks.json"), file: "assetlinks.json")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.description))")
        #expect(report.json != nil)
        #expect(report.document == nil)
    }

    @Test func invalidFixtureReportsEachProblemWithItsPath() throws {
        let report = validator.validate(bytes: try validateFixture("assetlinks-invalid.json"), file: "a")
        let found = report.diagnostics.map { "\($0.path) \($0.code) \($0.severity.rawValue)" }
        #expect(
            found == [
                "[0].target.package_name assetlinks.package-name error",
                "[0].target.sha256_cert_fingerprints[0] assetlinks.fingerprint error",
                "[1].relation assetlinks.type error",
                "[1].target.namespace assetlinks.ios-app warning",
            ]
        )
        #expect(report.diagnostics.allSatisfy { $0.file == "a" })
    }

    /// The demo brand's files, as served, pass without an error or warning;
    /// the only advice is about the print-page rule's inner `*`.
    @Test func demoBrandFilesAreClean() throws {
        var checked = 0
        for (host, url) in try AssetLinksDemo.files() {
            let report = validator.validate(bytes: Array(try Data(contentsOf: url)), file: url.path, host: host)
            let serious = report.diagnostics.filter { $0.severity != .info }
            #expect(serious.isEmpty, "\(serious.map(\.description))")
            #expect(report.diagnostics.allSatisfy { $0.code == "assetlinks.dynamic-wildcard" })
            checked += 1
        }
        #expect(checked == 5)
    }

    static let web = #"{"namespace":"web","site":"https://other.example"}"#
    static let include = #"{"include":"https://example.com/more.json"}"#

    static let cases: [(String, [String])] = [
        // The file
        ("{}", ["(root) assetlinks.type error"]),
        (#""x""#, ["(root) assetlinks.type error"]),
        ("[]", ["(root) assetlinks.empty error"]),
        ("[1]", ["[0] assetlinks.type error"]),
        (
            "[\(Sample.file().dropFirst().dropLast()), 7]",
            ["[1] assetlinks.type error"]
        ),
        // Statements: direct or include, never both
        (
            #"[{"target":\#(Sample.app())}]"#,
            ["[0] assetlinks.required error", "(root) assetlinks.no-app-links info"]
        ),
        (
            #"[{"relation":\#(Sample.appLinks)}]"#,
            ["[0] assetlinks.required error", "(root) assetlinks.no-app-links info"]
        ),
        ("[\(include)]", []),
        (
            #"[{"include":"https://example.com/more.json","relation":\#(Sample.appLinks),"target":\#(Sample.app())}]"#,
            ["[0].relation assetlinks.statement error", "[0].target assetlinks.statement error"]
        ),
        (
            #"[{"include":"https://example.com/a.json","relation_extensions":{}}]"#,
            ["[0].relation_extensions assetlinks.statement error"]
        ),
        (#"[{"include":"ftp://example.com/a.json"}]"#, ["[0].include assetlinks.include error"]),
        (#"[{"include":"example.com/a.json"}]"#, ["[0].include assetlinks.include error"]),
        (#"[{"include":3}]"#, ["[0].include assetlinks.include error"]),
        (#"[{"include":"http://example.com/a.json"}]"#, ["[0].include assetlinks.include-insecure warning"]),
        (
            #"[{"include":"https://example.com/a.json","comment":"x"}]"#,
            ["[0].comment assetlinks.unknown-key warning"]
        ),
        // Relations
        (
            Sample.file(relation: #""delegate_permission/common.handle_all_urls""#),
            ["[0].relation assetlinks.type error", "(root) assetlinks.no-app-links info"]
        ),
        (
            Sample.file(relation: "[]"),
            ["[0].relation assetlinks.relation error", "(root) assetlinks.no-app-links info"]
        ),
        (
            Sample.file(relation: "[1]"),
            ["[0].relation[0] assetlinks.type error", "(root) assetlinks.no-app-links info"]
        ),
        (
            Sample.file(relation: #"["delegate_permission/common.handle_all_url"]"#),
            ["[0].relation[0] assetlinks.relation-typo warning", "(root) assetlinks.no-app-links info"]
        ),
        (
            Sample.file(
                relation: #"["delegate_permission/common.handle_all_urls","delegate_permission/common.get_login_cred"]"#
            ),
            ["[0].relation[1] assetlinks.relation-typo warning"]
        ),
        (
            Sample.file(
                relation: #"["delegate_permission/common.handle_all_urls","delegate_permission/custom.thing"]"#
            ),
            ["[0].relation[1] assetlinks.unknown-relation info"]
        ),
        // Targets
        (
            Sample.file(target: #""android_app""#),
            ["[0].target assetlinks.type error", "(root) assetlinks.no-app-links info"]
        ),
        (
            Sample.file(target: #"{"package_name":"com.example.app"}"#),
            ["[0].target assetlinks.required error", "(root) assetlinks.no-app-links info"]
        ),
        (
            Sample.file(target: #"{"namespace":"android"}"#),
            ["[0].target.namespace assetlinks.namespace error", "(root) assetlinks.no-app-links info"]
        ),
        (
            Sample.file(target: #"{"namespace":3}"#),
            ["[0].target.namespace assetlinks.namespace error", "(root) assetlinks.no-app-links info"]
        ),
        (
            Sample.file(target: #"{"namespace":"ios_app","appid":"ABCDE12345.com.example.app"}"#),
            ["[0].target.namespace assetlinks.ios-app warning", "(root) assetlinks.no-app-links info"]
        ),
        (
            Sample.file(target: #"{"namespace":"android_app"}"#),
            ["[0].target assetlinks.required error", "[0].target assetlinks.required error"]
        ),
        (
            Sample.file(target: #"{"namespace":"android_app","package_name":"com.example.app"}"#),
            ["[0].target assetlinks.required error"]
        ),
        (
            Sample.file(
                target: #"{"namespace":"android_app","package_name":"com.example.app","sha256_cert_fingerprint":["x"]}"#
            ),
            [
                "[0].target assetlinks.required error",
                "[0].target.sha256_cert_fingerprint assetlinks.unknown-key warning",
            ]
        ),
        (Sample.file(target: Sample.app("7")), ["[0].target.package_name assetlinks.type error"]),
        (
            Sample.file(target: Sample.app(fingerprints: "[]")),
            ["[0].target.sha256_cert_fingerprints assetlinks.fingerprint error"]
        ),
        (
            Sample.file(target: Sample.app(fingerprints: #""\#(Sample.fingerprint)""#)),
            ["[0].target.sha256_cert_fingerprints assetlinks.type error"]
        ),
        (
            Sample.file(target: Sample.app(fingerprints: #"["\#(Sample.fingerprint)","\#(Sample.fingerprint)"]"#)),
            ["[0].target.sha256_cert_fingerprints[1] assetlinks.duplicate-fingerprint warning"]
        ),
        (
            Sample.file(target: #"{"namespace":"web"}"#),
            ["[0].target assetlinks.required error", "(root) assetlinks.no-app-links info"]
        ),
        (Sample.file(target: web), ["(root) assetlinks.no-app-links info"]),
        (
            Sample.file(target: #"{"namespace":"web","site":"https://a.example","package_name":"x"}"#),
            ["[0].target.package_name assetlinks.unknown-key warning", "(root) assetlinks.no-app-links info"]
        ),
        (
            #"[{"relations":\#(Sample.appLinks),"target":\#(Sample.app())}]"#,
            [
                "[0] assetlinks.required error", "[0].relations assetlinks.unknown-key warning",
                "(root) assetlinks.no-app-links info",
            ]
        ),
        // One malformed statement fails the whole file, whatever the others say.
        (
            "[\(Sample.file().dropFirst().dropLast()), \(Sample.file(target: Sample.app(#""app""#)).dropFirst().dropLast())]",
            ["[1].target.package_name assetlinks.package-name error"]
        ),
        (
            #"[{"relation":\#(Sample.appLinks),"relation":\#(Sample.appLinks),"target":\#(Sample.app())}]"#,
            ["[0].relation json.duplicate-key warning"]
        ),
    ]

    @Test(arguments: cases)
    func table(_ json: String, _ expected: [String]) {
        #expect(Sample.findings(json) == expected)
    }

    @Test func didYouMeanForKeysAndNamespaces() throws {
        let namespace = try #require(
            Sample.diagnostics(Sample.file(target: #"{"namespace":"android"}"#), at: "[0].target.namespace").first
        )
        #expect(namespace.message.contains(#"did you mean "android_app"?"#))
        let key = try #require(
            Sample.diagnostics(#"[{"relations":[],"target":\#(Sample.app())}]"#, at: "[0].relations").first
        )
        #expect(key.message.contains(#"did you mean "relation"?"#))
        let typo = try #require(
            Sample.diagnostics(
                Sample.file(relation: #"["delegate_permission/common.handle_all_url"]"#),
                at: "[0].relation[0]"
            ).first
        )
        #expect(typo.message.contains(#"did you mean "delegate_permission/common.handle_all_urls"?"#))
    }

    @Test func aWebTargetNamingTheFilesOwnSiteIsAWarningWhenTheHostIsKnown() {
        let json = Sample.file(target: #"{"namespace":"web","site":"https://WWW.Example.com."}"#)
        #expect(Sample.findings(json) == ["(root) assetlinks.no-app-links info"])
        #expect(
            Sample.findings(json, host: "www.example.com") == [
                "[0].target.site assetlinks.self-site warning", "(root) assetlinks.no-app-links info",
            ]
        )
        #expect(Sample.findings(json, host: "example.com") == ["(root) assetlinks.no-app-links info"])
    }

    @Test func sharesTheSizeCapAndSyntaxChecks() {
        let big = [UInt8](repeating: UInt8(ascii: " "), count: AASAValidator.maximumFileSize + 1)
        #expect(validator.validate(bytes: big).diagnostics.map(\.code) == ["file.too-large"])
        #expect(validator.validate(bytes: Array("[".utf8)).diagnostics.map(\.code) == ["json.syntax"])
    }

    /// The origin's entry point (`validate(bytes:file:)`) applies every rule:
    /// a file Google rejects has errors, so it is never served in place of
    /// the last good one.
    @Test func theOriginsEntryPointRejectsWhatGoogleRejects() {
        let rejected = [
            "[]",
            Sample.file(relation: #"["Delegate_Permission/common.handle_all_urls"]"#),
            Sample.file(target: Sample.app(fingerprints: #"["\#(Sample.fingerprint.lowercased())"]"#)),
            Sample.file(target: #"{"namespace":"web","site":"https://example.com/"}"#),
        ]
        for json in rejected {
            #expect(validator.validate(bytes: Array(json.utf8), file: "assetlinks.json").hasErrors, "\(json)")
        }
    }
}
