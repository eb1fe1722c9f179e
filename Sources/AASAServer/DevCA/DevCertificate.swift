import Crypto
import Foundation
import SwiftASN1
import X509

/// A leaf certificate signed by the ``DevCertificateAuthority``, for one
/// host (or a `*.` wildcard) served from a laptop or a staging box.
///
/// It has what iOS requires of a TLS server certificate: at most 825 days
/// of validity, the names as subject alternative names (iOS ignores the
/// common name), `extendedKeyUsage` serverAuth, `basicConstraints` not a CA,
/// and `keyUsage` digitalSignature for its P-256 key.
public struct DevCertificate: Sendable {
    public let certificate: Certificate
    /// The leaf's PEM, ending with a newline (so `cat` makes a valid bundle).
    public let certificatePEM: String
    public let keyPEM: String
    public let notValidAfter: Date

    /// Apple's limit for TLS server certificates issued since 2019.
    public static let maximumValidityDays = 825
    public static let defaultValidityDays = 365

    init(names: [String], issuer: DevCertificateAuthority, days: Int, now: Date) throws {
        precondition(!names.isEmpty && (1...Self.maximumValidityDays).contains(days))
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let subject = try DistinguishedName {
            OrganizationName("swift-aasa development")
            CommonName(names[0])
        }
        let notValidAfter = now.addingTimeInterval(Double(days) * 86_400)
        certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: key.publicKey,
            notValidBefore: now.addingTimeInterval(-300),
            notValidAfter: notValidAfter,
            issuer: issuer.certificate.subject,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names.map { GeneralName.dnsName($0) })
                SubjectKeyIdentifier(hash: key.publicKey)
                AuthorityKeyIdentifier(
                    keyIdentifier: try issuer.certificate.extensions.subjectKeyIdentifier?.keyIdentifier
                )
            },
            issuerPrivateKey: issuer.privateKey
        )
        certificatePEM = try PEMText.text(certificate.serializeAsPEM())
        keyPEM = try PEMText.text(key.serializeAsPEM())
        self.notValidAfter = notValidAfter
    }
}
