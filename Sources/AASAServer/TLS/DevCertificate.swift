import Crypto
import Foundation
import SwiftASN1
import X509

/// A self-signed certificate for local and LAN testing (`aasa dev-cert`):
/// P-256, the given hosts as subject alternative names, valid for `days`.
/// Apple devices accept it for associated domains only in developer mode
/// (`applinks:host?mode=developer`) and once the certificate is trusted.
public struct DevCertificate: Sendable {
    public let certificatePEM: String
    public let keyPEM: String
    public let notValidAfter: Date

    public init(hosts: [String], days: Int = 365, now: Date = Date()) throws {
        let key = P256.Signing.PrivateKey()
        let certificateKey = Certificate.PrivateKey(key)
        let name = try DistinguishedName {
            OrganizationName("swift-aasa development")
            CommonName(hosts.first ?? "localhost")
        }
        let notValidAfter = now.addingTimeInterval(Double(days) * 86_400)
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: certificateKey.publicKey,
            notValidBefore: now.addingTimeInterval(-300),
            notValidAfter: notValidAfter,
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(hosts.map { GeneralName.dnsName($0) })
            },
            issuerPrivateKey: certificateKey
        )
        self.certificatePEM = try certificate.serializeAsPEM().pemString
        self.keyPEM = try certificateKey.serializeAsPEM().pemString
        self.notValidAfter = notValidAfter
    }
}
