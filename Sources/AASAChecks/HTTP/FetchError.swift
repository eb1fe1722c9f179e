/// Why a fetch produced no usable response, with the URL it was for.
public struct FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, for callers that act on it.
    public enum Kind: Sendable, Hashable {
        /// The URL could not be built or has an unsupported scheme.
        case invalidURL
        /// No TCP connection (DNS, refused, connect timeout).
        case connection
        /// The TLS handshake failed: untrusted chain, wrong name, expired.
        case tls
        /// The whole exchange took longer than the configured total timeout.
        case timeout
        /// The body grew past the limit and reading was stopped.
        case bodyTooLarge(limit: Int)
        /// The body was compressed and could not be decompressed.
        case undecodableBody
        /// Any other transport failure.
        case transport
    }

    public var kind: Kind
    public var url: String
    /// A human explanation, without the URL.
    public var message: String

    public init(_ kind: Kind, url: String, message: String) {
        self.kind = kind
        self.url = url
        self.message = message
    }

    public var description: String { "\(url): \(message)" }
}
