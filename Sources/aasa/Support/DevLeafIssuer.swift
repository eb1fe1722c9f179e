import AASAServer
import Foundation
import Logging
import ServiceLifecycle

/// `aasa dev`'s watch on certificates: a host directory added (or a leaf
/// nearing expiry) while it runs gets a leaf from the development CA, which
/// the server's next poll loads; without it a new host's HTTPS handshakes
/// would fail until a restart.
struct DevLeafIssuer: Service {
    let authority: DevCertificateAuthority
    let directory: String
    let interval: Duration
    let logger: Logger
    /// Told what was issued (`aasa dev` prints it).
    let issued: @Sendable (HostCertificates.Outcome) -> Void

    func run() async throws {
        // Ends at graceful shutdown (the sleep is cancelled) or cancellation.
        try? await cancelWhenGracefulShutdown {
            while true {
                try await Task.sleep(for: interval)
                renew()
            }
        }
    }

    /// One pass; `now` is read afresh, as the process may run for weeks.
    func renew() {
        do {
            for outcome in try HostCertificates(authority: authority, directory: directory).ensureAll()
            where outcome.action == .issued {
                issued(outcome)
            }
        } catch {
            logger.error("cannot issue a development certificate", metadata: ["error": "\(error)"])
        }
    }
}
