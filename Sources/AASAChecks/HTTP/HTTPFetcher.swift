import AsyncHTTPClient
import CompressNIO
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Fetches one URL the way Apple's crawler is held to it: redirects are
/// reported, never followed; every request has a connect and a total
/// timeout; the body is read as a stream and cut at a limit, so a hostile
/// server streaming gigabytes costs a few hundred kilobytes. The certificate
/// must be trusted *and* name the URL's host, wherever the connection went.
///
/// Copies share one set of clients (``FetchClients``): a run's fetches
/// share the TLS context and its trust roots instead of building one
/// each. Call ``shutdown()`` when the run is over.
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
        /// `--resolve`: connect elsewhere for these domain and port pairs.
        /// Routes listed here share one client; a request's own
        /// ``FetchRequest/connectTo`` to elsewhere needs a client of its own.
        public var resolve: [ResolveOverride]
        /// The `User-Agent` sent.
        public var userAgent: String

        public init(
            connectTimeout: Duration = .seconds(10),
            timeout: Duration = .seconds(30),
            maximumBodySize: Int = 256 * 1024,
            insecure: Bool = false,
            caFile: String? = nil,
            resolve: [ResolveOverride] = [],
            userAgent: String = "swift-aasa (AASA-Bot compatible)"
        ) {
            self.connectTimeout = connectTimeout
            self.timeout = timeout
            self.maximumBodySize = maximumBodySize
            self.insecure = insecure
            self.caFile = caFile
            self.resolve = resolve
            self.userAgent = userAgent
        }
    }

    public let configuration: Configuration
    private let clients: FetchClients

    /// Prepares a fetcher; reads `caFile` now so a bad path is reported once,
    /// up front, rather than as a TLS failure on every host.
    public init(configuration: Configuration = Configuration()) throws(FetchConfigurationError) {
        self.configuration = configuration
        var tls = TLSConfiguration.makeClientConfiguration()
        // The chain is verified here; the name is checked by
        // `PeerCertificate.covers(host:)`, which holds the certificate to
        // Apple's rules rather than the TLS library's (see there).
        tls.certificateVerification = configuration.insecure ? .none : .noHostnameVerification
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
        clients = FetchClients { [configuration, tls] key in
            Self.makeClient(key, tls: tls, configuration: configuration)
        }
    }

    /// Shuts the clients down; fetches after it fail.
    public func shutdown() async {
        await clients.shutdown()
    }

    /// How many HTTP clients this fetcher has made, and how many are alive.
    var clientsCreated: Int { clients.created }
    var clientsAlive: Int { clients.alive }

    /// GETs `url` from its own host.
    public func fetch(_ url: String) async throws(FetchError) -> FetchedResponse {
        try await fetch(FetchRequest(url))
    }

    /// GETs `request.url`, connecting where the request or `--resolve` says.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchedResponse {
        guard let target = request.parsed else { throw FetchError(.invalidURL, url: request.url) }
        let connectTo =
            request.connectTo
            ?? configuration.resolve.first { $0.applies(host: target.host, port: target.port) }?.address
        let connectedTo = connectTo.map { $0.contains(":") ? "[\($0)]:\(target.port)" : "\($0):\(target.port)" }
        do {
            return try await fetchWithin(request, host: target.host, connectTo: connectTo, connectedTo: connectedTo)
        } catch let error where !configuration.insecure && error.kind == .tls(.certificateRejected([])) {
            throw await explain(error, request: request, host: target.host, connectTo: connectTo)
        }
    }

    /// The request under the total timeout, errors classified.
    private func fetchWithin(
        _ request: FetchRequest,
        host: String,
        connectTo: String?,
        connectedTo: String?
    ) async throws(FetchError) -> FetchedResponse {
        let timeouts = FetchFailureClassifier.Timeouts(
            connect: configuration.connectTimeout,
            total: configuration.timeout
        )
        do {
            // The request deadline of AsyncHTTPClient stops at the response
            // head; racing a timer bounds the body too.
            return try await withThrowingTaskGroup(of: FetchedResponse?.self) { group in
                group.addTask {
                    try await self.perform(request, host: host, connectTo: connectTo)
                }
                group.addTask {
                    try await Task.sleep(for: timeouts.total)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let response = first else {
                    throw FetchError(.timeout(timeouts.total), url: request.url)
                }
                return response
            }
        } catch {
            var failure = FetchError(
                FetchFailureClassifier.kind(of: error, timeouts: timeouts),
                url: request.url,
                connectedTo: connectedTo
            )
            if let mismatch = error as? NameMismatch {
                failure.kind = .tls(
                    .certificateRejected([.nameMismatch(host: host, names: mismatch.certificate.names)])
                )
                failure.certificate = mismatch.certificate
            } else if let unreadable = error as? UnreadableCertificate {
                failure.kind = .tls(.certificateRejected([.unreadable(reason: unreadable.reason)]))
            } else if error is MissingCertificate {
                failure.kind = .tls(.certificateRejected([.notPresented]))
            }
            throw failure
        }
    }

    /// A certificate that failed verification, fetched again without
    /// verification only to say why: "not trusted" alone does not tell
    /// whether it is self-signed, expired or for another name.
    private func explain(
        _ error: FetchError,
        request: FetchRequest,
        host: String,
        connectTo: String?
    ) async -> FetchError {
        let presented: PeerCertificate?
        do {
            _ = try await perform(request, host: host, connectTo: connectTo, probe: true)
            presented = nil
        } catch let done as HandshakeDone {
            presented = done.certificate
        } catch {
            presented = nil
        }
        guard let presented else { return error }
        var explained = error
        explained.certificate = presented
        explained.kind = .tls(
            .certificateRejected(
                CertificateProblem.diagnose(presented, host: host, caFile: configuration.caFile, now: Date())
            )
        )
        return explained
    }

    /// One GET over the shared client for its routes; with `probe`, only
    /// the handshake, over a client that accepts any certificate.
    private func perform(
        _ request: FetchRequest,
        host: String,
        connectTo: String?,
        probe: Bool = false
    ) async throws -> FetchedResponse {
        let key = FetchClients.Key(insecure: probe || configuration.insecure, routes: routes(for: request, connectTo))
        return try await clients.withClient(key) { httpClient in
            var outgoing = HTTPClientRequest(url: request.url)
            outgoing.method = .GET
            if let hostHeader = request.hostHeader { outgoing.headers.replaceOrAdd(name: "Host", value: hostHeader) }
            outgoing.headers.add(name: "User-Agent", value: configuration.userAgent)
            outgoing.headers.add(name: "Accept", value: "application/json, */*;q=0.5")
            outgoing.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
            // A connection per request: a run over a thousand hosts would
            // otherwise keep a thousand idle connections, and descriptors.
            outgoing.headers.add(name: "Connection", value: "close")
            if !configuration.insecure {
                outgoing.headers.add(name: PeerCertificateHandler.expectedNameHeader, value: host)
            }
            let response = try await httpClient.execute(outgoing, timeout: Self.timeAmount(configuration.timeout))
            var headers = response.headers
            let certificate = headers[PeerCertificateHandler.certificateHeader].first
                .flatMap { Data(base64Encoded: $0) }
                .flatMap { PeerCertificate(derEncoded: Array($0)) }
            headers.remove(name: PeerCertificateHandler.certificateHeader)
            let raw = try await Self.readBody(response.body, limit: configuration.maximumBodySize, url: request.url)
            var fetched = FetchedResponse(
                url: request.url,
                status: Int(response.status.code),
                reasonPhrase: response.status.reasonPhrase,
                headers: headers.map { ($0.name, $0.value) },
                body: [],
                transferredBytes: raw.readableBytes,
                certificate: certificate
            )
            fetched.body = try BodyDecoder.decode(
                raw,
                encoding: fetched.contentEncoding,
                limit: configuration.maximumBodySize,
                url: request.url
            )
            return fetched
        }
    }

    /// The DNS overrides of the client for `request`: every configured
    /// route on its port (so all hosts of a `--resolve` run share one
    /// client), and the request's own destination.
    private func routes(for request: FetchRequest, _ connectTo: String?) -> [String: String] {
        guard let target = request.parsed else { return [:] }
        var routes: [String: String] = [:]
        for route in configuration.resolve where route.port == target.port && routes[route.domain] == nil {
            routes[route.domain] = route.address
        }
        routes[target.host] = connectTo
        return routes
    }

    /// A client for `key`; its connections tie their certificate to their
    /// requests (``PeerCertificateHandler``).
    private static func makeClient(
        _ key: FetchClients.Key,
        tls: TLSConfiguration,
        configuration: Configuration
    ) -> HTTPClient {
        var client = HTTPClient.Configuration()
        var tls = tls
        if key.insecure { tls.certificateVerification = .none }
        client.tlsConfiguration = tls
        client.redirectConfiguration = .disallow
        client.httpVersion = .http1Only
        client.decompression = .disabled
        client.dnsOverride = key.routes
        // The pool would otherwise retry a failed TLS handshake until the
        // deadline, turning "untrusted certificate" into "timed out".
        client.connectionPool.retryConnectionEstablishment = false
        client.timeout = .init(
            connect: timeAmount(configuration.connectTimeout),
            read: timeAmount(configuration.timeout)
        )
        let probe = key.insecure && !configuration.insecure
        client.http1_1ConnectionDebugInitializer = { channel in
            channel.nioSSL_peerCertificate().map { peer -> PeerCertificateHandler.Peer in
                // A certificate whose bytes cannot be had reads as unreadable, not as plain HTTP.
                .tls(der: peer.map { (try? $0.toDERBytes()) ?? [] })
            }.flatMapErrorThrowing { error in
                // Only a pipeline without a TLS handler is plain HTTP; any
                // other error fails the request rather than skip the names.
                guard let pipelineError = error as? ChannelPipelineError, pipelineError == .notFound else {
                    throw error
                }
                return .plainHTTP
            }.flatMapThrowing { peer in
                if probe {
                    guard case .tls(let der) = peer else { throw HandshakeDone(certificate: nil) }
                    throw HandshakeDone(certificate: der.flatMap { PeerCertificate(derEncoded: $0) })
                }
                try channel.pipeline.syncOperations.addHandler(
                    PeerCertificateHandler(peer: peer),
                    position: .after(
                        try channel.pipeline.syncOperations.handler(
                            type: ByteToMessageHandler<HTTPResponseDecoder>.self
                        )
                    )
                )
            }.flatMapError { error in
                // AsyncHTTPClient fails the request but leaves a connection
                // whose initializer failed open: close it here.
                channel.close().flatMapThrowing { throw error }.flatMapErrorThrowing { _ in throw error }
            }
        }
        // NIOPosix on every platform: on Darwin the default group is
        // Network.framework's, which neither uses these trust settings nor
        // exposes the peer certificate, and reports different errors.
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: client)
    }

    private static func readBody(_ body: HTTPClientResponse.Body, limit: Int, url: String) async throws -> ByteBuffer {
        var raw = ByteBuffer()
        for try await chunk in body {
            guard raw.readableBytes + chunk.readableBytes <= limit else {
                throw FetchError(.bodyTooLarge(limit: limit), url: url)
            }
            var chunk = chunk
            raw.writeBuffer(&chunk)
        }
        return raw
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
