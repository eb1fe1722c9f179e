import AASAKit

/// `assetlinks.json` texts for the Android host checks.
enum AssetLinksFixtures {
    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    /// Another key: the upload key instead of Play's app-signing key.
    static let otherFingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")

    static func statement(
        _ package: String = "com.example.app",
        fingerprints: [String] = [fingerprint],
        relations: [String] = [AssetLinksRelation.handleAllURLs]
    ) -> String {
        let relationList = relations.map { "\"\($0)\"" }.joined(separator: ",")
        let fingerprintList = fingerprints.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"relation":[\#(relationList)],"target":{"namespace":"android_app","#
            + #""package_name":"\#(package)","sha256_cert_fingerprints":[\#(fingerprintList)]}}"#
    }

    static func include(_ url: String) -> String { #"{"include":"\#(url)"}"# }

    static func file(_ statements: String...) -> String { "[" + statements.joined(separator: ",") + "]" }

    static let valid = file(
        statement(relations: [AssetLinksRelation.handleAllURLs, AssetLinksRelation.getLoginCreds])
    )
}
