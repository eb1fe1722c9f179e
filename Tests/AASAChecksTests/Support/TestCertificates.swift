import Crypto
import Foundation
import NIOSSL
import X509
import _CryptoExtras

/// A private CA and leaves signed by it, made in the test so nothing secret
/// is checked in: the "staging host with a private certificate" that
/// `--ca-file` exists for, and the wrong-name certificates the TLS checks
/// must reject.
struct TestCertificates {
    /// One certificate and its key, in the forms the tests need.
    struct Leaf {
        let chain: [NIOSSLCertificate]
        let key: NIOSSLPrivateKey
        let certificatePEM: String
        let keyPEM: String
        let notValidAfter: Date
    }

    let caPEM: String
    private let caKey: P256.Signing.PrivateKey
    private let caName: DistinguishedName
    /// The default leaf: for example.com and localhost, and IP 127.0.0.1.
    let leaf: Leaf

    var leafChain: [NIOSSLCertificate] { leaf.chain }
    var leafKey: NIOSSLPrivateKey { leaf.key }
    var leafNotValidAfter: Date { leaf.notValidAfter }

    /// - Parameter validFor: how long the default leaf stays valid from now
    ///   (negative: it expired that long ago).
    init(validFor: TimeInterval = 90 * 86_400) throws {
        let now = Date()
        caKey = P256.Signing.PrivateKey()
        caName = try DistinguishedName { CommonName("swift-aasa test CA") }
        let ca = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(caKey.publicKey),
            notValidBefore: now - 365 * 86_400,
            notValidAfter: now + 365 * 86_400,
            issuer: caName,
            subject: caName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                KeyUsage(keyCertSign: true)
            },
            issuerPrivateKey: .init(caKey)
        )
        caPEM = try ca.serializeAsPEM().pemString
        leaf = try Self.issue(
            names: ["example.com", "localhost"],
            ipAddresses: [[127, 0, 0, 1]],
            validFor: validFor,
            caKey: caKey,
            caName: caName
        )
    }

    /// Another leaf from the same CA, for exactly these names.
    /// - Parameter startsIn: seconds from now until it becomes valid
    ///   (default: it became valid an hour ago, or before it expired).
    func issue(
        names: [String],
        ipAddresses: [[UInt8]] = [],
        validFor: TimeInterval = 90 * 86_400,
        startsIn: TimeInterval? = nil
    ) throws -> Leaf {
        try Self.issue(
            names: names,
            ipAddresses: ipAddresses,
            validFor: validFor,
            startsIn: startsIn,
            caKey: caKey,
            caName: caName
        )
    }

    /// A leaf for `names` whose key is 1,024-bit RSA: TLS (BoringSSL) uses
    /// it, but swift-certificates cannot read the certificate (it refuses
    /// RSA keys under 2,048 bits), so `PeerCertificate` sees no names.
    func issueWithWeakRSAKey(names: [String]) throws -> Leaf {
        let key = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024))
        return try Self.issue(
            names: names,
            ipAddresses: [],
            validFor: 90 * 86_400,
            key: (.init(key.publicKey), key.pemRepresentation),
            caKey: caKey,
            caName: caName
        )
    }

    private static func issue(
        names: [String],
        ipAddresses: [[UInt8]],
        validFor: TimeInterval,
        startsIn: TimeInterval? = nil,
        key: (public: Certificate.PublicKey, pem: String)? = nil,
        caKey: P256.Signing.PrivateKey,
        caName: DistinguishedName
    ) throws -> Leaf {
        let now = Date()
        let p256 = P256.Signing.PrivateKey()
        let key = key ?? (.init(p256.publicKey), p256.pemRepresentation)
        let notValidAfter = now + validFor
        let notValidBefore = startsIn.map { now + $0 } ?? min(now, notValidAfter) - 3600
        let alternativeNames =
            names.map { GeneralName.dnsName($0) }
            + ipAddresses.map { GeneralName.ipAddress(.init(contentBytes: $0[...])) }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: key.public,
            notValidBefore: notValidBefore,
            notValidAfter: notValidAfter,
            issuer: caName,
            subject: try DistinguishedName { CommonName(names.first ?? "127.0.0.1") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                KeyUsage(digitalSignature: true)
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(alternativeNames)
            },
            issuerPrivateKey: .init(caKey)
        )
        let certificatePEM = try certificate.serializeAsPEM().pemString
        return Leaf(
            chain: [try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem)],
            key: try NIOSSLPrivateKey(bytes: Array(key.pem.utf8), format: .pem),
            certificatePEM: certificatePEM,
            keyPEM: key.pem,
            notValidAfter: notValidAfter
        )
    }

    /// The server side, presenting the default leaf.
    func serverContext() throws -> NIOSSLContext {
        try Self.serverContext(leaf)
    }

    static func serverContext(_ leaf: Leaf) throws -> NIOSSLContext {
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: leaf.chain.map { .certificate($0) },
            privateKey: .privateKey(leaf.key)
        )
        return try NIOSSLContext(configuration: configuration)
    }

    /// Writes the CA to a temporary PEM file for `--ca-file`; the caller removes it.
    func writeCAFile() throws -> String {
        let path = FileManager.default.temporaryDirectory.appending(path: "aasa-test-ca-\(UUID().uuidString).pem").path
        try caPEM.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
