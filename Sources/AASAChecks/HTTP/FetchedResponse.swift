import Foundation

/// A response read to the end (within the size limit), redirects not
/// followed, the body decompressed when it came gzip- or deflate-encoded.
public struct FetchedResponse: Sendable {
    /// The URL that was requested.
    public var url: String
    public var status: Int
    public var reasonPhrase: String
    /// Response headers in the order received.
    public var headers: [(name: String, value: String)]
    /// The body after content decoding: what the size limit applies to.
    public var body: [UInt8]
    /// How many body bytes crossed the wire (before decompression).
    public var transferredBytes: Int
    /// The certificate the server presented, for HTTPS.
    public var certificate: PeerCertificate?

    public init(
        url: String,
        status: Int,
        reasonPhrase: String,
        headers: [(name: String, value: String)],
        body: [UInt8],
        transferredBytes: Int,
        certificate: PeerCertificate? = nil
    ) {
        self.url = url
        self.status = status
        self.reasonPhrase = reasonPhrase
        self.headers = headers
        self.body = body
        self.transferredBytes = transferredBytes
        self.certificate = certificate
    }

    /// The first value of a header, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// `404 Not Found`.
    public var statusLine: String { reasonPhrase.isEmpty ? "\(status)" : "\(status) \(reasonPhrase)" }

    public var isRedirect: Bool { (300..<400).contains(status) }

    /// The media type of `Content-Type`, lowercased, without parameters.
    public var mediaType: String? {
        guard let contentType = header("Content-Type") else { return nil }
        let type = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The `Content-Encoding` the body arrived in, when it was not identity.
    public var contentEncoding: String? {
        guard let encoding = header("Content-Encoding")?.trimmingCharacters(in: .whitespaces).lowercased(),
            !encoding.isEmpty, encoding != "identity"
        else { return nil }
        return encoding
    }
}
