import Foundation
import NIOCore
import NIOHTTP1

/// Sits between a shared client's HTTP codec and its request handler, on
/// one connection, and ties that connection's certificate to the requests
/// sent over it.
///
/// A shared client cannot tell its connection initializer which host a
/// connection is for, nor hand a request the connection it used. So the
/// fetch names its host in a private request header, read and removed
/// here before anything is written: a certificate that does not name the
/// host fails the request and closes the connection, and nothing is sent
/// over it. On the way back the certificate is attached to the response
/// head in another private header, which the fetch reads and removes.
final class PeerCertificateHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias InboundOut = HTTPClientResponsePart
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    /// Request header: the host the certificate must name.
    static let expectedNameHeader = "x-swift-aasa-certificate-must-name"
    /// Response header: the certificate, DER in base64.
    static let certificateHeader = "x-swift-aasa-peer-certificate"

    /// What the connection offers to check names against.
    enum Peer: Equatable {
        /// No TLS: there are no names to check.
        case plainHTTP
        /// TLS, and the certificate the server presented (DER), if one was read.
        case tls(der: [UInt8]?)
    }

    private enum Certificate {
        case plainHTTP
        case read(Result<PeerCertificate, UnreadableCertificate>)
        case missing
    }

    private let certificate: Certificate
    private let encoded: String?

    init(peer: Peer) {
        switch peer {
        case .plainHTTP:
            certificate = .plainHTTP
            encoded = nil
        case .tls(nil):
            certificate = .missing
            encoded = nil
        case .tls(let der?):
            certificate = .read(PeerCertificate.read(derEncoded: der))
            encoded = Data(der).base64EncodedString()
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        let expected = head.headers[Self.expectedNameHeader].first
        head.headers.remove(name: Self.expectedNameHeader)
        if let expected {
            switch certificate {
            case .read(.success(let certificate)) where !certificate.covers(host: expected):
                return refuse(NameMismatch(certificate: certificate), context: context, promise: promise)
            case .read(.failure(let unreadable)):
                // Names nobody could read were not checked: that is no pass.
                return refuse(unreadable, context: context, promise: promise)
            case .missing:
                // TLS without a certificate to read: no name was checked either.
                return refuse(MissingCertificate(), context: context, promise: promise)
            case .read(.success), .plainHTTP:
                break
            }
        }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }

    /// Fails the request and closes the connection before anything is sent.
    private func refuse(_ error: any Error, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        promise?.fail(error)
        context.fireErrorCaught(error)
        context.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        // Replaces one the server may have sent: only this handler speaks for the certificate.
        head.headers.remove(name: Self.certificateHeader)
        if let encoded { head.headers.add(name: Self.certificateHeader, value: encoded) }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}

/// Thrown on a connection whose certificate does not name the host.
struct NameMismatch: Error {
    var certificate: PeerCertificate
}

/// Thrown on a connection whose certificate swift-certificates cannot
/// read, when the fetch asked for its names to be checked.
struct UnreadableCertificate: Error {
    /// The parser's reason.
    var reason: String
}

/// Thrown on a TLS connection from which no certificate was read, when
/// the fetch asked for its names to be checked.
struct MissingCertificate: Error {}

/// Ends a probe's connection once the certificate is read: nothing is sent
/// over a connection that failed verification.
struct HandshakeDone: Error {
    var certificate: PeerCertificate?
}
