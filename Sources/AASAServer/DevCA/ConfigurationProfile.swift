import Crypto
import Foundation

/// The Apple configuration profile (`.mobileconfig`) that installs the
/// development CA on an iPhone or a Mac: one `com.apple.security.root`
/// payload holding the CA's DER certificate, built as a property list by
/// Foundation (never from a text template, so it is always well formed).
///
/// Installing it is not enough on iOS: the root must also be enabled under
/// Settings > General > About > Certificate Trust Settings.
public enum ConfigurationProfile {
    public static let rootPayloadType = "com.apple.security.root"
    public static let fileName = "aasa-dev-ca.mobileconfig"

    /// The profile's XML property list. Its identifiers derive from the CA
    /// common name (one per machine and user) so a profile made for a new CA
    /// replaces the old one on the phone instead of piling up beside it; its
    /// UUIDs derive from the certificate, so re-writing it changes nothing.
    public static func data(for authority: DevCertificateAuthority) throws -> Data {
        let der = try authority.certificateDER
        let commonName = authority.commonName
        let identifier = "dev.swift-aasa.dev-ca." + identifierSafe(commonName)
        let root: [String: Any] = [
            "PayloadType": rootPayloadType,
            "PayloadVersion": 1,
            "PayloadIdentifier": identifier + ".root",
            "PayloadUUID": uuid(der, salt: "root"),
            "PayloadDisplayName": commonName,
            "PayloadDescription": "Trusts the swift-aasa development CA for TLS.",
            "PayloadCertificateFileName": "aasa-dev-ca.cer",
            "PayloadContent": der,
        ]
        let profile: [String: Any] = [
            "PayloadType": "Configuration",
            "PayloadVersion": 1,
            "PayloadIdentifier": identifier,
            "PayloadUUID": uuid(der, salt: "profile"),
            "PayloadDisplayName": commonName,
            "PayloadDescription": """
            Lets this device trust HTTPS served by `aasa dev` or `aasa serve` from a development machine. \
            After installing, enable it in Settings > General > About > Certificate Trust Settings.
            """,
            "PayloadOrganization": "swift-aasa",
            "PayloadRemovalDisallowed": false,
            "PayloadContent": [root],
        ]
        return try PropertyListSerialization.data(fromPropertyList: profile, format: .xml, options: 0)
    }

    /// Reverse-DNS identifiers take letters, digits, `.` and `-`.
    static func identifierSafe(_ text: String) -> String {
        String(text.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
    }

    /// A stable UUID (version 5 layout) from the certificate.
    static func uuid(_ der: Data, salt: String) -> String {
        var bytes = Array(SHA256.hash(data: Data(salt.utf8) + der).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
        return uuid.uuidString
    }
}
