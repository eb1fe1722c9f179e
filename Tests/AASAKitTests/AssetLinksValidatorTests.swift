import Testing

@testable import AASAKit

@Suite("assetlinks.json validator")
struct AssetLinksValidatorTests {
    let validator = AssetLinksValidator()

    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    @Test func wellFormedFileHasNoFindings() throws {
        let report = validator.validate(bytes: try validateFixture("assetlinks.json"), file: "assetlinks.json")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.description))")
        #expect(report.json != nil)
        #expect(report.document == nil)
    }

    @Test func invalidFixtureReportsEachProblemWithItsPath() throws {
        let report = validator.validate(bytes: try validateFixture("assetlinks-invalid.json"), file: "a")
        let found = report.diagnostics.map { "\($0.path) \($0.code)" }
        #expect(
            found == [
                "[0].target.package_name assetlinks.package-name",
                "[0].target.sha256_cert_fingerprints[0] assetlinks.fingerprint",
                "[1].relation assetlinks.type",
                "[1].target.namespace assetlinks.namespace",
            ]
        )
        #expect(report.diagnostics.allSatisfy { $0.severity == .error && $0.file == "a" })
    }

    /// `[<statement>]` with the given target and relation.
    static func file(target: String, relation: String = #"["delegate_permission/common.handle_all_urls"]"#) -> String {
        #"[{"relation":\#(relation),"target":\#(target)}]"#
    }

    static func app(_ package: String = #""com.example.app""#, fingerprints: String? = nil) -> String {
        let list = fingerprints ?? #"["\#(fingerprint)"]"#
        return #"{"namespace":"android_app","package_name":\#(package),"sha256_cert_fingerprints":\#(list)}"#
    }

    static let cases: [(String, [String])] = [
        ("{}", ["(root) assetlinks.type error"]),
        ("[]", ["(root) assetlinks.empty warning"]),
        ("[1]", ["[0] assetlinks.type error", "(root) assetlinks.no-app-links info"]),
        (
            #"[{"target":{"namespace":"web","site":"https://a.b"}}]"#,
            ["[0] assetlinks.required error", "(root) assetlinks.no-app-links info"]
        ),
        (
            file(target: app(), relation: "[]"),
            ["[0].relation assetlinks.relation error", "(root) assetlinks.no-app-links info"]
        ),
        (
            file(target: app(), relation: #"["delegate_permission/common.handle_all_urls","x/y"]"#),
            ["[0].relation[1] assetlinks.relation warning"]
        ),
        (file(target: app(#""app""#)), ["[0].target.package_name assetlinks.package-name error"]),
        (file(target: app("7")), ["[0].target.package_name assetlinks.type error"]),
        (file(target: app(fingerprints: "[]")), ["[0].target.sha256_cert_fingerprints assetlinks.fingerprint error"]),
        (
            file(target: app(fingerprints: #"["\#(fingerprint.lowercased())"]"#)),
            ["[0].target.sha256_cert_fingerprints[0] assetlinks.fingerprint warning"]
        ),
        (
            file(target: app(fingerprints: #"["\#(fingerprint.replacingOccurrences(of: ":", with: ""))"]"#)),
            ["[0].target.sha256_cert_fingerprints[0] assetlinks.fingerprint error"]
        ),
        (
            file(target: #"{"namespace":"android_app"}"#),
            ["[0].target assetlinks.required error", "[0].target assetlinks.required error"]
        ),
        (
            file(target: #"{"namespace":"android_app","package_name":"a.b","sha256_cert_fingerprints":[],"extra":1}"#),
            [
                "[0].target.sha256_cert_fingerprints assetlinks.fingerprint error",
                "[0].target.extra assetlinks.unknown-key warning",
            ]
        ),
        (
            file(target: #"{"namespace":"web","site":"https://example.com/path"}"#),
            ["[0].target.site assetlinks.site error", "(root) assetlinks.no-app-links info"]
        ),
        (
            file(target: #"{"namespace":"web","site":"https://example.com:8443/"}"#),
            ["(root) assetlinks.no-app-links info"]
        ),
        (
            file(target: #"{"site":"https://example.com"}"#),
            ["[0].target assetlinks.required error", "(root) assetlinks.no-app-links info"]
        ),
    ]

    @Test(arguments: cases)
    func table(_ json: String, _ expected: [String]) {
        let found = validator.validate(bytes: Array(json.utf8)).diagnostics.map {
            "\($0.path) \($0.code) \($0.severity.rawValue)"
        }
        #expect(found == expected)
    }

    @Test func sharesTheSizeCapAndSyntaxChecks() {
        let big = [UInt8](repeating: UInt8(ascii: " "), count: AASAValidator.maximumFileSize + 1)
        #expect(validator.validate(bytes: big).diagnostics.map(\.code) == ["file.too-large"])
        #expect(validator.validate(bytes: Array("[".utf8)).diagnostics.map(\.code) == ["json.syntax"])
    }

    @Test(arguments: [
        ("com.example.app", true), ("a.b_c.D9", true), ("app", false), ("com.9x", false), ("com..x", false),
        ("com.ex-ample", false),
    ])
    func packageNames(_ name: String, _ valid: Bool) {
        #expect(AssetLinksValidator.isPackageName(name) == valid)
    }
}
