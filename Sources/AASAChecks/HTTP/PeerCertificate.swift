import Foundation
import NIOCore
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
    /// The IP addresses of the subject alternative name extension, as text.
    public var ipAddresses: [String]

    public init(
        subject: String,
        issuer: String,
        notValidBefore: Date,
        notValidAfter: Date,
        dnsNames: [String],
        ipAddresses: [String] = []
    ) {
        self.subject = subject
        self.issuer = issuer
        self.notValidBefore = notValidBefore
        self.notValidAfter = notValidAfter
        self.dnsNames = dnsNames
        self.ipAddresses = ipAddresses
    }

    /// Summarises a DER-encoded certificate; `nil` when it does not parse.
    public init?(derEncoded bytes: [UInt8]) {
        guard case .success(let certificate) = Self.read(derEncoded: bytes) else { return nil }
        self = certificate
    }

    /// Summarises a DER-encoded certificate, or says why it cannot: a
    /// certificate TLS accepted can still be beyond swift-certificates
    /// (an RSA key under 2,048 bits, an unknown key type).
    static func read(derEncoded bytes: [UInt8]) -> Result<PeerCertificate, UnreadableCertificate> {
        do {
            return .success(PeerCertificate(try Certificate(derEncoded: bytes)))
        } catch {
            return .failure(UnreadableCertificate(reason: "\(error)"))
        }
    }

    private init(_ certificate: Certificate) {
        var dnsNames: [String] = []
        var ipAddresses: [String] = []
        if let names = try? certificate.extensions.subjectAlternativeNames {
            for name in names {
                switch name {
                case .dnsName(let dnsName): dnsNames.append(dnsName)
                case .ipAddress(let octets): ipAddresses.append(Self.ipText(octets.bytes) ?? "(malformed IP)")
                default: break
                }
            }
        }
        self.init(
            subject: certificate.subject.description,
            issuer: certificate.issuer.description,
            notValidBefore: certificate.notValidBefore,
            notValidAfter: certificate.notValidAfter,
            dnsNames: dnsNames,
            ipAddresses: ipAddresses
        )
    }

    /// Every name the certificate is for, DNS names first.
    public var names: [String] { dnsNames + ipAddresses }

    /// Whether the certificate names itself as its issuer (a self-signed
    /// staging certificate, typically).
    public var isSelfIssued: Bool { subject == issuer }

    /// Whole days from `now` until expiry; negative once expired.
    public func daysUntilExpiry(from now: Date) -> Int {
        Int((notValidAfter.timeIntervalSince(now) / 86_400).rounded(.down))
    }

    /// Whether the certificate is for `host` the way Apple's systems decide
    /// it (RFC 6125 as applied since iOS 13): a DNS subject alternative name
    /// equal to the host, ignoring case and a final dot, or `*.` standing for
    /// exactly one whole leftmost label; an IP literal only by an IP
    /// subject alternative name. Two things TLS libraries also accept do not
    /// count here: the common name, which Apple ignores, and an IP name
    /// equal to the address connected to, which proves nothing about the
    /// host when `--base-url` or `--resolve` chose that address.
    public func covers(host: String) -> Bool {
        if let ip = Self.canonicalIP(host) {
            return ipAddresses.contains { Self.canonicalIP($0) == ip }
        }
        let host = Self.normalised(host)
        return dnsNames.contains { pattern in
            let pattern = Self.normalised(pattern)
            if pattern == host { return true }
            guard pattern.hasPrefix("*."), let dot = host.firstIndex(of: ".") else { return false }
            let label = host[..<dot]
            return !label.isEmpty && host[host.index(after: dot)...] == pattern.dropFirst(2)
        }
    }

    private static func normalised(_ name: String) -> String {
        var name = name.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        return name
    }

    /// The address in one canonical spelling, `nil` when `text` is not an IP literal.
    private static func canonicalIP(_ text: String) -> String? {
        let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        return (try? SocketAddress(ipAddress: bare, port: 0))?.ipAddress
    }

    private static func ipText(_ octets: ArraySlice<UInt8>) -> String? {
        guard octets.count == 4 || octets.count == 16 else { return nil }
        return (try? SocketAddress(packedIPAddress: ByteBuffer(bytes: octets), port: 0))?.ipAddress
    }
}
