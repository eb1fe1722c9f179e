@testable import AASAKit

/// Building blocks for assetlinks.json tests.
enum AssetLinksSample {
    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let appLinks = #"["delegate_permission/common.handle_all_urls"]"#

    /// An `android_app` target (JSON text).
    static func app(_ package: String = #""com.example.app""#, fingerprints: String? = nil) -> String {
        let list = fingerprints ?? #"["\#(fingerprint)"]"#
        return #"{"namespace":"android_app","package_name":\#(package),"sha256_cert_fingerprints":\#(list)}"#
    }

    /// `[<statement>]` with the given target and relation (JSON text).
    static func file(target: String = app(), relation: String = appLinks) -> String {
        #"[{"relation":\#(relation),"target":\#(target)}]"#
    }

    /// A file granting App Links to com.example.app with these dynamic rules
    /// (JSON text of the `dynamic_app_link_components` value).
    static func rules(_ components: String, package: String = "com.example.app") -> String {
        let target = app(literal(package))
        return #"""
            [{"relation":\#(appLinks),"target":\#(target),
              "relation_extensions":{"delegate_permission/common.handle_all_urls":
                {"dynamic_app_link_components":\#(components)}}}]
            """#
    }

    /// `path code severity` for every finding of `json`, in report order.
    static func findings(_ json: String, host: String? = nil) -> [String] {
        AssetLinksValidator().validate(bytes: Array(json.utf8), file: nil, host: host).diagnostics.map {
            "\($0.path) \($0.code) \($0.severity.rawValue)"
        }
    }

    /// The findings of `json` whose path is `path`.
    static func diagnostics(_ json: String, at path: String, host: String? = nil) -> [Diagnostic] {
        AssetLinksValidator().validate(bytes: Array(json.utf8), file: nil, host: host).diagnostics.filter {
            $0.path.description == path
        }
    }

    /// Whether the bundled schema accepts `json` (JSON text).
    static func schemaAccepts(_ json: String) throws -> Bool {
        JSONSchema.assetLinks.validate(try JSONParser().parse(Array(json.utf8)).value).isEmpty
    }

    /// `text` as a JSON string literal.
    static func literal(_ text: String) -> String {
        JSONValue.string(text).serialized()
    }
}
