import AsyncHTTPClient
import CompressNIO
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// Fetches one URL the way Apple's crawler is held to it: redirects are
/// reported, never followed; every request has a connect and a total
/// timeout; the body is read as a stream and cut at a limit, so a hostile
/// server streaming gigabytes costs a few hundred kilobytes.
public struct HTTPFetcher: Sendable {
    /// Bounds and trust for every request a fetcher makes.
    public struct Configuration: Sendable {
        /// Time allowed to open the TCP connection and finish TLS (default 10 s).
        public var connectTimeout: Duration
        /// Time allowed for the whole exchange, body included (default 30 s).
        public var timeout: Duration
        /// The most body bytes read, on the wire and again after
        /// decompression (default 256 KiB, twice Apple's 128 KiB limit, so an
        /// oversize file can still be measured and reported).
        public var maximumBodySize: Int
        /// Accept any certificate (`--insecure`); the chain is still recorded.
        public var insecure: Bool
        /// Extra trusted roots, PEM (`--ca-file`), on top of the system's.
        public var caFile: String?
        /// The `User-Agent` sent.
        public var userAgent: String

        public init(
            connectTimeout: Duration = .seconds(10),
            timeout: Duration = .seconds(30),
            maximumBodySize: Int = 256 * 1024,
            insecure: Bool = false,
            caFile: String? = nil,
            userAgent: String = "swift-aasa (AASA-Bot compatible)"
        ) {
            self.connectTimeout = connectTimeout
            self.timeout = timeout
            self.maximumBodySize = maximumBodySize
            self.insecure = insecure
            self.caFile = caFile
            self.userAgent = userAgent
        }
    }

    public let configuration: Configuration
    private let tlsConfiguration: TLSConfiguration

    /// Prepares a fetcher; reads `caFile` now so a bad path is reported once,
    /// up front, rather than as a TLS failure on every host.
    public init(configuration: Configuration = Configuration()) throws(FetchConfigurationError) {
        self.configuration = configuration
        var tls = TLSConfiguration.makeClientConfiguration()
        if configuration.insecure {
            tls.certificateVerification = .none
        }
        if let caFile = configuration.caFile {
            do {
                let roots = try NIOSSLCertificate.fromPEMFile(caFile)
                guard !roots.isEmpty else {
                    throw FetchConfigurationError(path: caFile, message: "no PEM certificate in the file")
                }
                tls.additionalTrustRoots = [.certificates(roots)]
            } catch let error as FetchConfigurationError {
                throw error
            } catch {
                throw FetchConfigurationError(path: caFile, message: "cannot read the CA file: \(error)")
            }
        }
        self.tlsConfiguration = tls
    }

    /// GETs `url`, sending `Host: host` when given (to reach a host's
    /// virtual server through another address, as `--base-url` does).
    public func fetch(_ url: String, host: String? = nil) async throws(FetchError) -> FetchedResponse {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            parsed.host != nil
        else {
            throw FetchError(.invalidURL, url: url, message: "not an http(s) URL")
        }
        let timeout = configuration.timeout
        do {
            // The request deadline of AsyncHTTPClient stops at the response
            // head; racing a timer bounds the body too.
            return try await withThrowingTaskGroup(of: FetchedResponse?.self) { group in
                group.addTask { try await self.perform(url: url, host: host) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let response = first else {
                    throw FetchError(
                        .timeout,
                        url: url,
                        message: "no complete response within \(Self.seconds(timeout))"
                    )
                }
                return response
            }
        } catch let error as FetchError {
            throw error
        } catch {
            throw Self.classify(error, url: url, timeout: timeout)
        }
    }

    private func perform(url: String, host: String?) async throws -> FetchedResponse {
        let certificate = Mutex<[UInt8]?>(nil)
        var client = HTTPClient.Configuration()
        client.tlsConfiguration = tlsConfiguration
        client.redirectConfiguration = .disallow
        client.httpVersion = .http1Only
        client.decompression = .disabled
        // The pool would otherwise retry a failed TLS handshake until the
        // deadline, turning "untrusted certificate" into "timed out".
        client.connectionPool.retryConnectionEstablishment = false
        client.timeout = .init(
            connect: Self.timeAmount(configuration.connectTimeout),
            read: Self.timeAmount(configuration.timeout)
        )
        // One client per fetch, so the connection below is this request's and
        // the certificate captured on it is the one this response came over.
        client.http1_1ConnectionDebugInitializer = { channel in
            channel.nioSSL_peerCertificate().map { peer in
                certificate.withLock { $0 = try? peer?.toDERBytes() }
            }.recover { _ in }  // plain HTTP: no TLS handler, nothing to record
        }
        let limit = configuration.maximumBodySize
        return try await HTTPClient.withHTTPClient(configuration: client) { httpClient in
            var request = HTTPClientRequest(url: url)
            request.method = .GET
            if let host { request.headers.replaceOrAdd(name: "Host", value: host) }
            request.headers.add(name: "User-Agent", value: configuration.userAgent)
            request.headers.add(name: "Accept", value: "application/json, */*;q=0.5")
            request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
            let response = try await httpClient.execute(request, timeout: Self.timeAmount(configuration.timeout))
            var raw = ByteBuffer()
            for try await chunk in response.body {
                guard raw.readableBytes + chunk.readableBytes <= limit else {
                    throw FetchError(
                        .bodyTooLarge(limit: limit),
                        url: url,
                        message: "response body larger than \(limit) bytes; stopped reading"
                    )
                }
                var chunk = chunk
                raw.writeBuffer(&chunk)
            }
            var fetched = FetchedResponse(
                url: url,
                status: Int(response.status.code),
                reasonPhrase: response.status.reasonPhrase,
                headers: response.headers.map { ($0.name, $0.value) },
                body: [],
                transferredBytes: raw.readableBytes,
                certificate: certificate.withLock { $0 }.flatMap { PeerCertificate(derEncoded: $0) }
            )
            fetched.body = try Self.decode(raw, encoding: fetched.contentEncoding, limit: limit, url: url)
            return fetched
        }
    }

    private static func decode(
        _ raw: ByteBuffer,
        encoding: String?,
        limit: Int,
        url: String
    ) throws(FetchError) -> [UInt8] {
        let algorithm: CompressionAlgorithm
        switch encoding {
        case nil: return Array(raw.readableBytesView)
        case "gzip", "x-gzip": algorithm = .gzip()
        case "deflate": algorithm = .zlib()
        case let other?:
            throw FetchError(.undecodableBody, url: url, message: "unsupported Content-Encoding \"\(other)\"")
        }
        var compressed = raw
        do {
            // One byte of headroom: CompressNIO refuses to fill the buffer
            // exactly, and a body of exactly `limit` bytes is acceptable.
            let decoded = try compressed.decompress(with: algorithm, maxSize: limit + 1)
            return Array(decoded.readableBytesView)
        } catch let error as CompressNIOError where error == .bufferOverflow {
            throw FetchError(
                .bodyTooLarge(limit: limit),
                url: url,
                message: "\(encoding ?? "") body decompresses to more than \(limit) bytes; stopped"
            )
        } catch {
            throw FetchError(
                .undecodableBody,
                url: url,
                message: "cannot decompress the \(encoding ?? "") body: \(error)"
            )
        }
    }

    private static func classify(_ error: any Error, url: String, timeout: Duration) -> FetchError {
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout:
                return FetchError(.connection, url: url, message: "connection timed out")
            case .deadlineExceeded, .readTimeout:
                return FetchError(.timeout, url: url, message: "no complete response within \(seconds(timeout))")
            case .remoteConnectionClosed:
                return FetchError(.transport, url: url, message: "the server closed the connection before answering")
            default:
                return FetchError(.transport, url: url, message: "\(error)")
            }
        }
        if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError {
            return FetchError(.tls, url: url, message: "TLS handshake failed: \(error)")
        }
        if error is CancellationError {
            return FetchError(.timeout, url: url, message: "cancelled")
        }
        if case ChannelError.connectTimeout = error {
            return FetchError(.connection, url: url, message: "connection timed out")
        }
        // DNS failures and refused connections arrive as NIOConnectionError.
        if error is IOError || error is SocketAddressError || error is NIOConnectionError {
            return FetchError(.connection, url: url, message: "cannot connect: \(error)")
        }
        return FetchError(.transport, url: url, message: "\(error)")
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
