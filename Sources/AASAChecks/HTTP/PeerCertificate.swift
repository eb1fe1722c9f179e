import Foundation
import X509

/// What a check reports about the certificate a TLS server presented: who it
/// is for, who issued it, and when it stops being valid.
public struct PeerCertificate: Sendable, Hashable {
    public var subject: String
    public var issuer: String
    public var notValidBefore: Date
    public var notValidAfter: Date
    /// The DNS names of the subject alternative name extension.
    public var dnsNames: [String]

    public init(subject: String, issuer: String, notValidBefore: Date, notValidAfter: Date, dnsNames: [String]) {
        self.subject = subject
        self.issuer = issuer
        self.notValidBefore = notValidBefore
        self.notValidAfter = notValidAfter
        self.dnsNames = dnsNames
    }

    /// Summarises a DER-encoded certificate; `nil` when it does not parse.
    public init?(derEncoded bytes: [UInt8]) {
        guard let certificate = try? Certificate(derEncoded: bytes) else { return nil }
        var dnsNames: [String] = []
        if let names = try? certificate.extensions.subjectAlternativeNames {
            for name in names {
                if case .dnsName(let dnsName) = name { dnsNames.append(dnsName) }
            }
        }
        self.init(
            subject: certificate.subject.description,
            issuer: certificate.issuer.description,
            notValidBefore: certificate.notValidBefore,
            notValidAfter: certificate.notValidAfter,
            dnsNames: dnsNames
        )
    }

    /// Whether the certificate names itself as its issuer (a self-signed
    /// staging certificate, typically).
    public var isSelfIssued: Bool { subject == issuer }

    /// Whole days from `now` until expiry; negative once expired.
    public func daysUntilExpiry(from now: Date) -> Int {
        Int((notValidAfter.timeIntervalSince(now) / 86_400).rounded(.down))
    }
}
