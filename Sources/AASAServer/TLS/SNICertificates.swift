import Logging
import NIOCore
import NIOSSL

/// The TLS context of the HTTPS listener: each handshake gets the
/// certificate of the host its server name (SNI) names, from the current
/// snapshot (so certificates reload with the files), else the default
/// certificate when one is configured. With neither, the handshake fails
/// and a log line (rate-limited, see ``HandshakeRefusalLog``) says which
/// name lacks a certificate: no host is ever answered with another host's
/// certificate.
struct SNICertificates {
    let store: SiteStore
    let logger: Logger
    /// How long a refusal line stands for the refusals after it.
    let refusalLogInterval: TimeAmount

    /// The reason a handshake was refused, as the TLS handler reports it.
    struct MissingCertificate: Error, CustomStringConvertible {
        let serverName: String?
        var description: String {
            "no certificate for \(serverName.map(LoadIssue.printable) ?? "a client without SNI")"
        }
    }

    func makeContext() throws(StartupError) -> NIOSSLContext {
        var tls: TLSConfiguration
        if let identity = store.snapshot.identity(forServerName: nil) {
            tls = .makeServerConfiguration(
                certificateChain: identity.chain.map { .certificate($0) },
                privateKey: .privateKey(identity.key)
            )
        } else {
            // NIOSSL has no server factory without a certificate; the two
            // factories differ only in peer verification, which a server
            // turns off. Every handshake then gets its certificate below.
            tls = .makeClientConfiguration()
            tls.certificateVerification = .none
        }
        tls.minimumTLSVersion = .tlsv12
        tls.applicationProtocols = ["http/1.1"]
        let store = self.store
        let refusals = HandshakeRefusalLog(logger: logger, interval: refusalLogInterval)
        tls.sslContextCallback = { values, promise in
            let snapshot = store.snapshot
            guard let identity = snapshot.identity(forServerName: values.serverHostname) else {
                refusals.record(serverName: values.serverHostname, snapshot: snapshot)
                promise.fail(MissingCertificate(serverName: values.serverHostname))
                return
            }
            var override = NIOSSLContextConfigurationOverride()
            override.certificateChain = identity.chain.map { .certificate($0) }
            override.privateKey = .privateKey(identity.key)
            promise.succeed(override)
        }
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw StartupError(message: "TLS: \(error)")
        }
    }
}
