import Testing

@testable import AASAKit

/// `get_login_creds` in assetlinks.json and `webcredentials` in the same
/// host's AASA file go together (docs/ANDROID.md, "Credential sharing").
@Suite("assetlinks.json and AASA credential sharing")
struct AssetLinksCredentialSharingTests {
    static let sharing = AssetLinksSample.file(
        relation: #"["delegate_permission/common.handle_all_urls","delegate_permission/common.get_login_creds"]"#
    )
    static let notSharing = AssetLinksSample.file()
    static let webSharing = AssetLinksSample.file(
        target: #"{"namespace":"web","site":"https://other.example"}"#,
        relation: #"["delegate_permission/common.get_login_creds"]"#
    )
    static let withCredentials = #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#
    static let emptyCredentials = #"{"webcredentials": {"apps": []}}"#
    static let noCredentials = #"{"applinks": {"details": []}}"#

    /// assetlinks, AASA, the finding expected as `file path code`.
    static let cases: [(String, String, [String])] = [
        (sharing, withCredentials, []),
        (notSharing, noCredentials, []),
        (
            sharing, noCredentials,
            ["assetlinks.json [0].relation[1] assetlinks.webcredentials-missing"]
        ),
        (
            sharing, emptyCredentials,
            ["assetlinks.json [0].relation[1] assetlinks.webcredentials-missing"]
        ),
        (
            notSharing, withCredentials,
            ["apple-app-site-association webcredentials assetlinks.login-creds-missing"]
        ),
        // Sharing with another web site is not sharing with the Android app.
        (
            webSharing, withCredentials,
            ["apple-app-site-association webcredentials assetlinks.login-creds-missing"]
        ),
    ]

    @Test(arguments: cases)
    func pairing(_ assetLinks: String, _ association: String, _ expected: [String]) throws {
        let found = CredentialSharingLint().diagnostics(
            assetLinks: AssetLinksFile(json: try JSONParser().parse(Array(assetLinks.utf8)).value),
            assetLinksFile: "assetlinks.json",
            association: AASAFile(json: try JSONParser().parse(Array(association.utf8)).value),
            associationFile: "apple-app-site-association"
        )
        #expect(found.map { "\($0.file ?? "-") \($0.path) \($0.code)" } == expected)
        #expect(found.allSatisfy { $0.severity == .warning })
    }
}
