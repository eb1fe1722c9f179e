import Foundation

/// Why TLS failed, in the terms a user can act on.
public enum TLSFailure: Sendable, Hashable {
    /// The server presented a certificate and it was rejected, for these
    /// reasons (empty only when the certificate could not be seen at all).
    case certificateRejected([CertificateProblem])
    /// The server did not answer in TLS: plain HTTP on an `https://` port.
    case notTLS
    /// The handshake broke off before any certificate decision; the reason.
    case handshakeFailed(reason: String)

    public var message: String {
        switch self {
        case .certificateRejected(let problems) where problems.isEmpty:
            return "TLS certificate rejected (the certificate could not be read to say why)"
        case .certificateRejected(let problems):
            return "TLS certificate rejected: " + problems.map(\.message).joined(separator: "; ")
        case .notTLS:
            return
                "TLS handshake failed: the server did not answer in TLS (plain HTTP on this port? use an http:// URL)"
        case .handshakeFailed(let reason):
            return "TLS handshake failed: \(reason)"
        }
    }

    /// The problems of a rejected certificate, none otherwise.
    public var problems: [CertificateProblem] {
        if case .certificateRejected(let problems) = self { return problems }
        return []
    }
}

/// One reason a certificate is not accepted for a host.
public enum CertificateProblem: Sendable, Hashable {
    /// The certificate names other hosts (DNS and IP subject alternative
    /// names; the common name does not count, as on Apple's systems).
    case nameMismatch(host: String, names: [String])
    case expired(notValidAfter: Date)
    case notYetValid(notValidBefore: Date)
    /// Issued by itself and not in any trust store given.
    case selfSigned(subject: String)
    /// Issued by a CA that is not trusted: not a system root and not in
    /// `--ca-file` (the path, when one was given).
    case untrustedIssuer(issuer: String, caFile: String?)
    /// Trusted by TLS, but the certificate could not be read (the parser's
    /// reason), so its names were not held to Apple's rules.
    case unreadable(reason: String)
    /// The connection was TLS but no certificate was read from it, so no
    /// name was checked. TLS libraries always present one after a
    /// verified handshake; this keeps a library change from reading as a pass.
    case notPresented

    public var message: String {
        switch self {
        case .nameMismatch(let host, let names) where names.isEmpty:
            return
                "certificate name mismatch: the certificate names no host (no subject alternative names), not \(host)"
        case .nameMismatch(let host, let names):
            return "certificate name mismatch: the certificate is for \(names.joined(separator: ", ")), not \(host)"
        case .expired(let date):
            return "the certificate expired on \(Self.day(date))"
        case .notYetValid(let date):
            return "the certificate is not valid before \(Self.day(date)) (or this machine's clock is wrong)"
        case .selfSigned(let subject):
            return
                "the certificate is self-signed (\(subject)) and not trusted; pass it with --ca-file, or use --insecure"
        case .untrustedIssuer(let issuer, nil):
            return "the issuer (\(issuer)) is not a trusted CA; for a private CA pass it with --ca-file"
        case .untrustedIssuer(let issuer, let caFile?):
            return "the issuer (\(issuer)) is neither a system CA nor in --ca-file \(caFile)"
        case .unreadable(let reason):
            return "the certificate could not be read (X.509 parser: \(reason)); its names were not checked"
        case .notPresented:
            return Self.notPresentedMessage
        }
    }

    /// Said wherever a TLS connection showed no certificate.
    static let notPresentedMessage = "no certificate was read; its names were not checked"

    /// Every problem of `certificate` for `host`. Called after verification
    /// failed, so a certificate with valid dates that is not self-signed was
    /// rejected for its issuer.
    static func diagnose(_ certificate: PeerCertificate, host: String, caFile: String?, now: Date) -> [Self] {
        var problems: [Self] = []
        if !certificate.covers(host: host) {
            problems.append(.nameMismatch(host: host, names: certificate.names))
        }
        if certificate.notValidAfter < now {
            problems.append(.expired(notValidAfter: certificate.notValidAfter))
        } else if certificate.notValidBefore > now {
            problems.append(.notYetValid(notValidBefore: certificate.notValidBefore))
        } else if certificate.isSelfIssued {
            problems.append(.selfSigned(subject: certificate.subject))
        } else {
            problems.append(.untrustedIssuer(issuer: certificate.issuer, caFile: caFile))
        }
        return problems
    }

    private static func day(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day())
    }
}
