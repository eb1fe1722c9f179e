import Logging
import NIOCore

/// One connection's side of the access log: who the client is (read once,
/// when the connection starts) and the lines about the connection itself
/// rather than one request (timeouts, limits broken).
///
/// Every value that came from the network goes into metadata, never into
/// the message; the log handler quotes and escapes metadata values, so no
/// value can forge a field or a line (see `LoggingSetup`).
final class ConnectionLog {
    let logger: Logger?
    /// `address:port` of the peer (a proxy's, behind one), or `-`.
    private(set) var client = "-"

    init(logger: Logger?) {
        self.logger = logger
    }

    /// Why the server ended a connection, as logged in `http.reason`.
    enum CloseReason: Equatable {
        case timeout(ConnectionClock.Expiry)
        /// The client pipelined past the input budget without reading its answers.
        case inputOverBudget

        var description: String {
            switch self {
            case .timeout(let expiry): expiry.rawValue
            case .inputOverBudget: "input-over-budget"
            }
        }
    }

    func connected(remote: SocketAddress?) {
        guard logger != nil, let remote else { return }
        client = Self.describe(remote)
    }

    func closed(_ reason: CloseReason) {
        logger?.info(
            "connection closed",
            metadata: ["http.client": .string(client), "http.reason": .string(reason.description)]
        )
    }

    static func describe(_ address: SocketAddress) -> String {
        guard let ip = address.ipAddress, let port = address.port else { return "-" }
        if case .v6 = address { return "[\(ip)]:\(port)" }
        return "\(ip):\(port)"
    }
}
