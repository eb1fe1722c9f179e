import Logging
import NIOCore

/// The warning for a refused TLS handshake, one line per reason at most
/// every `interval`, with how many handshakes it stood for: anyone on the
/// internet can open handshakes naming hosts we do not serve, and a line
/// per handshake would make the log the bottleneck.
final class HandshakeRefusalLog: Sendable {
    private let withoutServerName: RateLimitedLog
    private let servedWithoutCertificate: RateLimitedLog
    private let notServed: RateLimitedLog

    /// - Parameter now: the clock; tests pass their own.
    init(
        logger: Logger,
        interval: TimeAmount = RateLimitedLog.defaultInterval,
        now: @escaping @Sendable () -> NIODeadline = { .now() }
    ) {
        func log(_ message: Logger.Message) -> RateLimitedLog {
            RateLimitedLog(logger: logger, message: message, interval: interval, now: now)
        }
        withoutServerName = log(
            "TLS handshake refused: the client sent no server name (SNI) and there is no default certificate (tls.certificate)"
        )
        servedWithoutCertificate = log(
            "TLS handshake refused: the host has no certificate of its own (<dir>/<host>/tls/cert.pem, e.g. from `aasa dev-cert`) and there is no default certificate (tls.certificate)"
        )
        notServed = log(
            "TLS handshake refused: the server name is not a served host and there is no default certificate (tls.certificate)"
        )
    }

    /// Counts a refusal; the line (when one is due) names the latest server
    /// name, which comes from the client and is escaped.
    func record(serverName: String?, snapshot: SiteSnapshot) {
        guard let serverName else {
            withoutServerName.record()
            return
        }
        let log = snapshot.serves(serverName: serverName) ? servedWithoutCertificate : notServed
        log.record(["server_name": "\(LoadIssue.printable(serverName))"])
    }
}
