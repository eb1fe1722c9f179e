import Crypto
import Foundation
import NIOSSL
import X509

/// A private CA and a leaf for 127.0.0.1 signed by it, made in the test so
/// nothing secret is checked in: the "staging host with a private
/// certificate" that `--ca-file` exists for.
struct TestCertificates {
    let caPEM: String
    let leafChain: [NIOSSLCertificate]
    let leafKey: NIOSSLPrivateKey
    let leafNotValidAfter: Date

    /// - Parameter validFor: how long the leaf stays valid from now.
    init(validFor: TimeInterval = 90 * 86_400) throws {
        let now = Date()
        let caKey = P256.Signing.PrivateKey()
        let caName = try DistinguishedName { CommonName("swift-aasa test CA") }
        let ca = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(caKey.publicKey),
            notValidBefore: now - 3600,
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
        let leafKey = P256.Signing.PrivateKey()
        let leafNotValidAfter = now + validFor
        let leaf = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(leafKey.publicKey),
            notValidBefore: now - 3600,
            notValidAfter: leafNotValidAfter,
            issuer: caName,
            subject: try DistinguishedName { CommonName("127.0.0.1") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                KeyUsage(digitalSignature: true)
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([.ipAddress(.init(contentBytes: [127, 0, 0, 1])), .dnsName("localhost")])
            },
            issuerPrivateKey: .init(caKey)
        )
        self.caPEM = try ca.serializeAsPEM().pemString
        self.leafChain = [try NIOSSLCertificate(bytes: Array(try leaf.serializeAsPEM().pemString.utf8), format: .pem)]
        self.leafKey = try NIOSSLPrivateKey(bytes: Array(leafKey.pemRepresentation.utf8), format: .pem)
        self.leafNotValidAfter = leafNotValidAfter
    }

    /// The server side.
    func serverContext() throws -> NIOSSLContext {
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: leafChain.map { .certificate($0) },
            privateKey: .privateKey(leafKey)
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
