import Testing

@testable import AASAKit

/// The spelling rules Google applies to relation strings, package names,
/// certificate fingerprints and web sites (docs/ANDROID.md): each case is
/// checked three ways — the bundled schema's verdict, the Swift rule's, and
/// the validator's finding with its reason and "did you mean".
@Suite("assetlinks.json spelling rules")
struct AssetLinksSpellingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var text: String
        /// `nil` when valid; else a fragment of the reason given.
        var reason: String?
        var suggestion: String?

        init(_ text: String, _ reason: String? = nil, suggest suggestion: String? = nil) {
            self.text = text
            self.reason = reason
            self.suggestion = suggestion
        }

        var testDescription: String { AssetLinksSample.literal(text) }
    }

    static let handle = "delegate_permission/common.handle_all_urls"

    static let relations: [Case] = [
        Case(handle),
        Case("delegate_permission/common.get_login_creds"),
        Case("delegate_permission/common.use_as_origin"),
        Case("delegate_permission/x"),
        Case("delegate_permission/a.b_c.9"),
        Case("", "the relation is empty"),
        Case("delegate_permission/common.Handle_All_URLs", "uppercase", suggest: handle),
        Case("DELEGATE_PERMISSION/COMMON.HANDLE_ALL_URLS", "unknown kind", suggest: handle),
        Case(handle + " ", "whitespace at an end", suggest: handle),
        Case(" delegate_permission/x", "whitespace at an end", suggest: "delegate_permission/x"),
        Case("delegate_permission /common.handle_all_urls", "whitespace (a space)", suggest: handle),
        Case("delegate_permission/ x", "whitespace (a space)"),
        Case("delegate_permission/common.handle_all_urls\n", "a line break", suggest: handle),
        Case("delegate_permission/common.handle all urls", "whitespace", suggest: handle),
        Case("delegate_permission/*", "\"*\" is not a wildcard"),
        Case("delegate_permission/common.*", "\"*\" is not a wildcard"),
        Case("*", "no \"/\""),
        Case("delegate_permission", "no \"/\""),
        Case("delegate_permission/", "the detail after \"/\" is empty"),
        Case("/common.handle_all_urls", "the kind before \"/\" is empty"),
        Case("delegate_permission/a/b", "a second \"/\""),
        Case("delegate_permission//x", "a second \"/\""),
        Case("delegate_permission/common.handle_all_urls+x", "not \"+\"", suggest: handle),
        Case("delegate_permission/!x", "not \"!\""),
        Case("delegate_permission/a,b", "not \",\""),
        Case("delegate_permission/a-b", "not \"-\""),
        Case("delegate_permission/commön", "not \"ö\""),
        Case("other_kind/common.handle_all_urls", "unknown kind \"other_kind\""),
        Case("delegate_permissions/common.handle_all_urls", "unknown kind", suggest: handle),
    ]

    @Test(arguments: relations)
    func relation(_ example: Case) throws {
        let json = AssetLinksSample.file(relation: "[\(AssetLinksSample.literal(example.text))]")
        try expect(example, json: json, at: "[0].relation[0]", code: "assetlinks.relation")
        #expect(AssetLinksRelation.isValid(example.text) == (example.reason == nil))
    }

    static let packages: [Case] = [
        Case("com.example.app"),
        Case("a.b"),
        Case("com.Example_1.app9"),
        Case("A.B"),
        Case("", "the package name is empty"),
        Case("app", "at least two dot-separated parts"),
        Case("com..app", "an empty part"),
        Case(".com.app", "an empty part"),
        Case("com.app.", "an empty part"),
        Case("com.9app", "\"9app\" does not start with a letter"),
        Case("com._app", "\"_app\" does not start with a letter"),
        Case("com.ex-ample", "not \"-\""),
        Case("com.exämple", "not \"ä\""),
        Case("com.example app", "whitespace (a space)"),
        Case(" com.example.app", "whitespace", suggest: "com.example.app"),
    ]

    @Test(arguments: packages)
    func packageName(_ example: Case) throws {
        let json = AssetLinksSample.file(target: AssetLinksSample.app(AssetLinksSample.literal(example.text)))
        try expect(example, json: json, at: "[0].target.package_name", code: "assetlinks.package-name")
        #expect(AndroidPackageName.isValid(example.text) == (example.reason == nil))
    }

    static let fingerprint = AssetLinksSample.fingerprint
    static let fingerprints: [Case] = [
        Case(fingerprint),
        Case("", "the fingerprint is empty"),
        Case(fingerprint.lowercased(), "lowercase", suggest: fingerprint),
        Case(fingerprint.replacingOccurrences(of: ":", with: ""), "not separated by colons", suggest: fingerprint),
        Case(fingerprint.replacingOccurrences(of: ":", with: " "), "whitespace (a space)", suggest: fingerprint),
        Case(String(fingerprint.dropLast(3)), "31 bytes; a SHA-256 fingerprint has 32"),
        Case(fingerprint + ":AA", "33 bytes"),
        Case(String(fingerprint.prefix(59)), "20 bytes is a SHA-1 fingerprint"),
        Case(fingerprint + ":", "\"\" is not a byte", suggest: fingerprint),
        Case("GG" + fingerprint.dropFirst(2), "\"GG\" is not a byte"),
        Case(fingerprint.replacingOccurrences(of: ":", with: "-"), "is not a byte", suggest: fingerprint),
        Case(fingerprint + "\n", "whitespace (a line break)", suggest: fingerprint),
    ]

    @Test(arguments: fingerprints)
    func certificateFingerprint(_ example: Case) throws {
        let list = "[\(AssetLinksSample.literal(example.text))]"
        let json = AssetLinksSample.file(target: AssetLinksSample.app(fingerprints: list))
        try expect(
            example,
            json: json,
            at: "[0].target.sha256_cert_fingerprints[0]",
            code: "assetlinks.fingerprint"
        )
        #expect(CertificateFingerprint.isValid(example.text) == (example.reason == nil))
    }

    static let sites: [Case] = [
        Case("https://example.com"),
        Case("http://example.com"),
        Case("HTTPS://Example.COM"),
        Case("https://example.com."),
        Case("https://example.com:8443"),
        Case("https://example.com.:1"),
        Case("https://example.com:65535"),
        Case("https://a-b.example"),
        Case("https://localhost"),
        Case("https://192.168.0.1"),
        Case("", "the site is empty"),
        Case("https://example.com/", "ends with \"/\"", suggest: "https://example.com"),
        Case("https://example.com/path", "has a path (\"/path\")", suggest: "https://example.com"),
        Case("https://example.com:8443/app?x", "has a path", suggest: "https://example.com:8443"),
        Case("https://user@example.com", "user info"),
        Case("https://user:secret@example.com", "user info"),
        Case("https://example.com?x=1", "has a query", suggest: "https://example.com"),
        Case("https://example.com#top", "has a fragment", suggest: "https://example.com"),
        Case("https://example.com:0", "\"0\" is not a port"),
        Case("https://example.com:65536", "\"65536\" is not a port"),
        Case("https://example.com:", "\"\" is not a port"),
        Case("https://example.com:08443", "\"08443\" is not a port"),
        Case("https://example.com:https", "\"https\" is not a port"),
        Case("example.com", "no scheme", suggest: "https://example.com"),
        Case("//example.com", "no scheme"),
        Case("ftp://example.com", "\"ftp\" is not http or https"),
        Case("android-app://com.example.app", "\"android-app\" is not http or https"),
        Case("https://", "no host"),
        Case("https://exa_mple.com", "contains \"_\""),
        Case("https://-example.com", "is not a host name"),
        Case("https://example..com", "is not a host name"),
        Case("https://[::1]", "IPv6"),
        Case(" https://example.com", "a space", suggest: "https://example.com"),
        Case("https://example.com\n", "a line break", suggest: "https://example.com"),
    ]

    @Test(arguments: sites)
    func webSite(_ example: Case) throws {
        let json = AssetLinksSample.file(
            target: #"{"namespace":"web","site":\#(AssetLinksSample.literal(example.text))}"#
        )
        try expect(example, json: json, at: "[0].target.site", code: "assetlinks.site")
        #expect((WebSiteOrigin(example.text) != nil) == (example.reason == nil))
    }

    /// The schema, the Swift rule and the validator agree on `example`.
    private func expect(_ example: Case, json: String, at path: String, code: String) throws {
        #expect(try AssetLinksSample.schemaAccepts(json) == (example.reason == nil))
        // Valid but unusual relations get advice, which is not the point here.
        let found = AssetLinksSample.diagnostics(json, at: path).filter { $0.severity == .error }
        guard let reason = example.reason else {
            #expect(found.isEmpty, "\(found)")
            return
        }
        let diagnostic = try #require(found.first)
        #expect(found.count == 1)
        #expect(diagnostic.code == code)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.message.contains(reason), "\(diagnostic.message)")
        #expect(diagnostic.message.hasSuffix("Google rejects the whole file"))
        if let suggestion = example.suggestion {
            #expect(diagnostic.message.contains("did you mean \(AssetLinksSample.literal(suggestion))?"))
        } else {
            #expect(!diagnostic.message.contains("did you mean"), "\(diagnostic.message)")
        }
    }
}
