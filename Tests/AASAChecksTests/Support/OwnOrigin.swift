import Foundation
import Logging
import NIOCore
import NIOSSL
import Synchronization

@testable import AASAServer

/// The project's own origin (`aasa serve`'s store, responder and connection
/// pipeline) serving a temporary directory on 127.0.0.1, port 0: what
/// `aasa check --base-url` and `aasa cdn-diff --origin-base` are pointed at
/// for a local server.
enum OwnOrigin {
    /// The server names (SNI) TLS clients sent, in order; `nil` for none.
    final class ServerNames: Sendable {
        private let names = Mutex<[String?]>([])

        func record(_ name: String?) { names.withLock { $0.append(name) } }
        var all: [String?] { names.withLock { $0 } }
    }

    /// - Parameters:
    ///   - files: `<host>/<file name>` → contents (per-host certificates go
    ///     to `<host>/tls/cert.pem` and `<host>/tls/key.pem`).
    ///   - tls: the default certificate; with it the origin speaks TLS only,
    ///     choosing each connection's certificate by SNI as `aasa serve` does.
    static func with<Result>(
        _ files: [String: String],
        tls: TestCertificates.Leaf? = nil,
        _ body: (FakeHTTPServer, ServerNames) async throws -> Result
    ) async throws -> Result {
        let root = FileManager.default.temporaryDirectory.appending(path: "aasa-checks-origin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appending(path: "site")
        var all = files
        if let tls {
            all["../default-cert.pem"] = tls.certificatePEM
            all["../default-key.pem"] = tls.keyPEM
        }
        for (relative, contents) in all {
            let url = directory.appending(path: relative).standardizedFileURL
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(contents.utf8).write(to: url)
        }
        var logger = Logger(label: "aasa-checks-test")
        logger.logLevel = .critical
        let configuration = ServerConfiguration(
            http: .init(bind: "127.0.0.1", port: 0),
            files: .init(directory: directory.path, pollInterval: nil, strict: true),
            tls: tls == nil
                ? .init()
                : .init(
                    certificatePath: root.appending(path: "default-cert.pem").path,
                    keyPath: root.appending(path: "default-key.pem").path
                )
        )
        let origin = AASAOrigin(configuration: configuration, logger: logger)
        try await origin.initialLoad()
        let serverNames = ServerNames()
        let context = try tls.map { leaf in try sniContext(default: leaf, store: origin.store, recording: serverNames) }
        let pipeline = ServingPipeline(
            store: origin.store,
            limits: configuration.limits,
            accessLog: nil,
            tlsContext: context
        )
        let configure: @Sendable (any Channel) throws -> Void = { channel in try pipeline.configure(channel) }
        return try await FakeHTTPServer.with(scheme: tls == nil ? "http" : "https", configuring: configure) { server in
            try await body(server, serverNames)
        }
    }

    /// The origin's TLS set-up (the host's own certificate by SNI, else the
    /// default), recording the name each client asked for.
    private static func sniContext(
        default leaf: TestCertificates.Leaf,
        store: SiteStore,
        recording serverNames: ServerNames
    ) throws -> NIOSSLContext {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: leaf.chain.map { .certificate($0) },
            privateKey: .privateKey(leaf.key)
        )
        tls.sslContextCallback = { values, promise in
            serverNames.record(values.serverHostname)
            var override = NIOSSLContextConfigurationOverride()
            if let identity = store.snapshot.identity(forServerName: values.serverHostname) {
                override.certificateChain = identity.chain.map { .certificate($0) }
                override.privateKey = .privateKey(identity.key)
            }
            promise.succeed(override)
        }
        return try NIOSSLContext(configuration: tls)
    }
}
