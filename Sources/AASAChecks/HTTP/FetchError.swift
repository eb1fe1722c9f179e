/// Why a fetch produced no usable response: what happened, in a form callers
/// switch on (``Kind``) and in plain words (``message``).
public struct FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, most specific first. The associated values carry
    /// what the message needs to be precise.
    public enum Kind: Sendable, Hashable {
        /// The URL could not be built or has an unsupported scheme.
        case invalidURL
        /// The name did not resolve; the resolver's own reason.
        case dnsFailure(reason: String)
        /// The address answered, but nothing listens on the port.
        case connectionRefused
        /// No route to the address (network or host unreachable); the reason.
        case unreachable(reason: String)
        /// No TCP connection within the connect timeout.
        case connectTimeout(Duration)
        /// TLS failed: a rejected certificate, or a handshake that broke off.
        case tls(TLSFailure)
        /// The whole exchange took longer than the total timeout.
        case timeout(Duration)
        /// The server closed the connection before a complete answer.
        case connectionClosed
        /// The answer was not valid HTTP/1.1; the parser's reason.
        case invalidResponse(reason: String)
        /// The body grew past the limit and reading was stopped.
        case bodyTooLarge(limit: Int)
        /// The body was compressed and could not be decompressed; why.
        case undecodableBody(reason: String)
        /// Anything else, as the transport described it.
        case transport(reason: String)
    }

    public var kind: Kind
    /// The URL that was requested.
    public var url: String
    /// Where the connection went (`127.0.0.1:8443`), when that is not the
    /// URL's own host (`--base-url`, `--resolve`).
    public var connectedTo: String?
    /// The certificate the server presented, when TLS got that far.
    public var certificate: PeerCertificate?

    public init(_ kind: Kind, url: String, connectedTo: String? = nil, certificate: PeerCertificate? = nil) {
        self.kind = kind
        self.url = url
        self.connectedTo = connectedTo
        self.certificate = certificate
    }

    /// What happened, in plain words, without the URL.
    public var message: String {
        let via = connectedTo.map { " (connecting to \($0))" } ?? ""
        switch kind {
        case .invalidURL:
            return "not an http(s) URL"
        case .dnsFailure(let reason):
            return "DNS lookup failed\(via): \(reason)"
        case .connectionRefused:
            return "connection refused\(via): nothing is listening on that port"
        case .unreachable(let reason):
            return "cannot reach the address\(via): \(reason)"
        case .connectTimeout(let duration):
            return "timed out connecting\(via): no TCP connection within \(Self.seconds(duration))"
        case .tls(let failure):
            return failure.message
        case .timeout(let duration):
            return "timed out: no complete response within \(Self.seconds(duration))"
        case .connectionClosed where url.lowercased().hasPrefix("http://"):
            return "the server closed the connection without answering (if it speaks TLS on this port, use https://)"
        case .connectionClosed:
            return "the server closed the connection without answering"
        case .invalidResponse(let reason):
            return "the answer is not valid HTTP/1.1: \(reason)"
        case .bodyTooLarge(let limit):
            return "the body is larger than \(limit) bytes (uncompressed); stopped reading"
        case .undecodableBody(let reason):
            return reason
        case .transport(let reason):
            return reason
        }
    }

    public var description: String { "\(url): \(message)" }

    /// `10 s`, `0.3 s`.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
