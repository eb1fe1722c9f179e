import Crypto
import Foundation
import SwiftASN1
import X509

/// The local development CA of `aasa dev-cert` and `aasa dev`: one root a
/// phone trusts once (through its configuration profile), which then signs a
/// short-lived leaf certificate for every host served from a laptop.
///
/// The CA is a P-256 key with `basicConstraints` CA (path length 0: it signs
/// leaves only) and `keyUsage` keyCertSign + cRLSign, both critical, as
/// Apple requires of a root it will enable in Certificate Trust Settings.
public struct DevCertificateAuthority: Sendable {
    public let certificate: Certificate
    let privateKey: Certificate.PrivateKey

    /// Why a stored CA cannot be used.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Ten years: a root installed on a test phone should outlive the
    /// project; the leaves it signs are what expire.
    public static let defaultValidityDays = 3650

    /// A new CA named after this machine's user and host, so two laptops'
    /// CAs are told apart in the phone's list of profiles.
    public init(
        commonName: String = DevCertificateAuthority.defaultCommonName,
        days: Int = DevCertificateAuthority.defaultValidityDays,
        now: Date = Date()
    ) throws {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let name = try DistinguishedName {
            OrganizationName("swift-aasa development CA")
            CommonName(commonName)
        }
        certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: key.publicKey,
            notValidBefore: now.addingTimeInterval(-300),
            notValidAfter: now.addingTimeInterval(Double(days) * 86_400),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: key.publicKey)
            },
            issuerPrivateKey: key
        )
        privateKey = key
    }

    /// A CA read back from its PEM files; the key must belong to the
    /// certificate and the certificate must be a CA that has not expired.
    public init(certificatePEM: String, keyPEM: String, now: Date = Date()) throws(Problem) {
        do {
            certificate = try Certificate(pemEncoded: certificatePEM)
            privateKey = try Certificate.PrivateKey(pemEncoded: keyPEM)
        } catch {
            throw Problem(description: "not a PEM certificate and key: \(error)")
        }
        guard privateKey.publicKey == certificate.publicKey else {
            throw Problem(description: "the CA key does not belong to the CA certificate")
        }
        guard case .isCertificateAuthority = try? certificate.extensions.basicConstraints else {
            throw Problem(description: "the certificate is not a CA (basicConstraints)")
        }
        guard certificate.notValidAfter > now else {
            throw Problem(description: "the CA expired on \(certificate.notValidAfter.formatted(.iso8601))")
        }
    }

    public var certificatePEM: String {
        get throws { try PEMText.text(certificate.serializeAsPEM()) }
    }

    public var keyPEM: String {
        get throws { try PEMText.text(privateKey.serializeAsPEM()) }
    }

    /// The certificate's DER bytes (the configuration profile's payload).
    public var certificateDER: Data {
        get throws {
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return Data(serializer.serializedBytes)
        }
    }

    /// SHA-256 of the DER certificate, `AB:CD:…`: what Settings shows under
    /// the profile's details, to compare before trusting it.
    public var fingerprint: String {
        get throws {
            SHA256.hash(data: try certificateDER).map { String(format: "%02X", $0) }.joined(separator: ":")
        }
    }

    /// Signs a leaf for `names` (host names or `*.` wildcards).
    public func issue(
        names: [String],
        days: Int = DevCertificate.defaultValidityDays,
        now: Date = Date()
    ) throws
        -> DevCertificate
    {
        try DevCertificate(names: names, issuer: self, days: days, now: now)
    }

    /// Whether this CA signed `certificate` (its issuer name and signature).
    public func issued(_ leaf: Certificate) -> Bool {
        leaf.issuer == certificate.subject && certificate.publicKey.isValidSignature(leaf.signature, for: leaf)
    }

    /// The CA's common name, as the phone lists it.
    public var commonName: String {
        for rdn in certificate.subject {
            for attribute in rdn where attribute.type == .RDNAttributeType.commonName {
                if let name = String(attribute.value) { return name }
            }
        }
        return "aasa dev CA"
    }

    public static var defaultCommonName: String {
        let user = ProcessInfo.processInfo.environment["USER"] ?? "developer"
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "localhost"
        return "aasa dev CA \(user)@\(host)"
    }
}
