import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Turns what the HTTP stack throws into a ``FetchError/Kind``: the
/// transport's errors describe its internals (`connection reset (error
/// set): Connection refused) (errno: 111)`); users need to read what
/// happened (`connection refused: nothing is listening on that port`).
enum FetchFailureClassifier {
    /// The timeouts in force, for the messages that name them.
    struct Timeouts {
        var connect: Duration
        var total: Duration
    }

    static func kind(of error: any Error, timeouts: Timeouts) -> FetchError.Kind {
        switch error {
        case let error as FetchError:
            return error.kind
        case let error as HTTPClientError:
            return kind(of: error, timeouts: timeouts)
        case let error as NIOConnectionError:
            // Happy Eyeballs: a DNS failure, or every address failing.
            if let dnsError = error.dnsAError ?? error.dnsAAAAError {
                return kind(of: dnsError, timeouts: timeouts)
            }
            guard let first = error.connectionErrors.first else {
                return .transport(reason: "no address to connect to for \(error.host)")
            }
            return kind(of: first.error, timeouts: timeouts)
        case let error as SocketAddressError.UnknownHost:
            return .dnsFailure(reason: "\(error.host): \(error.errorDescription)")
        case SocketAddressError.unknown(let host, _):
            return .dnsFailure(reason: "\(host): no address found")
        case let error as IOError:
            return kind(errno: error.errnoCode, timeouts: timeouts)
        case ChannelError.connectTimeout:
            return .connectTimeout(timeouts.connect)
        case let error as NIOSSLError:
            return kind(of: error)
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return .tls(.certificateRejected([]))
        case let error as HTTPParserError:
            return .invalidResponse(reason: "\(error)")
        case is CancellationError:
            return .timeout(timeouts.total)
        default:
            return .transport(reason: "\(error)")
        }
    }

    private static func kind(of error: HTTPClientError, timeouts: Timeouts) -> FetchError.Kind {
        switch error {
        case .connectTimeout:
            return .connectTimeout(timeouts.connect)
        case .deadlineExceeded, .readTimeout, .cancelled:
            return .timeout(timeouts.total)
        case .tlsHandshakeTimeout:
            return .tls(.handshakeFailed(reason: "the handshake did not finish in time"))
        case .remoteConnectionClosed:
            return .connectionClosed
        case .invalidURL, .emptyHost, .emptyScheme:
            return .invalidURL
        case .bodyLengthMismatch:
            return .invalidResponse(reason: "the body is shorter or longer than its Content-Length")
        default:
            return .transport(reason: "\(error)")
        }
    }

    /// What an errno from `connect(2)` or a read means to the user.
    static func kind(errno code: CInt, timeouts: Timeouts) -> FetchError.Kind {
        switch code {
        case ECONNREFUSED: .connectionRefused
        case ETIMEDOUT: .connectTimeout(timeouts.connect)
        case ECONNRESET, EPIPE: .connectionClosed
        case ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL, ENETDOWN, EHOSTDOWN:
            .unreachable(reason: String(cString: strerror(code)).lowercased())
        default: .transport(reason: String(cString: strerror(code)))
        }
    }

    private static func kind(of error: NIOSSLError) -> FetchError.Kind {
        switch error {
        case .handshakeFailed(let boringSSL):
            // The stack can hold a detail (BAD_SIGNATURE) before the verdict.
            let reasons = reasonCodes(in: "\(boringSSL)")
            let reason = reasons.first { $0 == "CERTIFICATE_VERIFY_FAILED" } ?? reasons.first
            return .tls(reason.map(failure(forReason:)) ?? .handshakeFailed(reason: "\(boringSSL)"))
        case .uncleanShutdown:
            return .connectionClosed
        default:
            return .tls(.handshakeFailed(reason: "\(error)"))
        }
    }

    /// The TLS failure a BoringSSL reason code stands for, in words.
    static func failure(forReason reason: String) -> TLSFailure {
        switch reason {
        case "CERTIFICATE_VERIFY_FAILED":
            // The certificate is fetched again to say why (``HTTPFetcher``).
            return .certificateRejected([])
        case "WRONG_VERSION_NUMBER", "HTTP_REQUEST", "PACKET_LENGTH_TOO_LONG":
            return .notTLS
        case "TLSV1_ALERT_UNRECOGNIZED_NAME":
            return .handshakeFailed(reason: "the server has no certificate for this name (it rejected the SNI name)")
        case "TLSV1_ALERT_PROTOCOL_VERSION", "UNSUPPORTED_PROTOCOL":
            return .handshakeFailed(reason: "no TLS version in common (Apple requires TLS 1.2 or later)")
        case "SSLV3_ALERT_HANDSHAKE_FAILURE", "NO_SHARED_CIPHER", "NO_CIPHERS_AVAILABLE":
            return .handshakeFailed(reason: "the server refused the handshake (no cipher suite in common)")
        case "TLSV1_ALERT_INTERNAL_ERROR":
            return .handshakeFailed(reason: "the server reported an internal error during the handshake")
        case "TLSV13_ALERT_CERTIFICATE_REQUIRED", "SSLV3_ALERT_BAD_CERTIFICATE":
            return .handshakeFailed(
                reason: "the server asks for a client certificate; Apple's crawler does not send one"
            )
        default:
            return .handshakeFailed(reason: reason)
        }
    }

    /// The upper-case reason codes of BoringSSL error strings
    /// (`error:100000f7:SSL routines:OPENSSL_internal:WRONG_VERSION_NUMBER at …`).
    static func reasonCodes(in text: String) -> [String] {
        var codes: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: "OPENSSL_internal:") {
            let code = rest[range.upperBound...].prefix { $0.isUppercase || $0.isNumber || $0 == "_" }
            if !code.isEmpty { codes.append(String(code)) }
            rest = rest[range.upperBound...]
        }
        return codes
    }
}
