import Logging
import NIOCore
import Prometheus
import Synchronization

/// A listener's connection cap (`limits.maxConnections`, `admin.maxConnections`):
/// admits a connection or refuses it with one cheap 503, counted in
/// `aasa_connections_refused_total{listener}` and logged at most once per
/// interval, with the number refused.
final class ConnectionAdmission: Sendable {
    let limit: Int
    private let open = Atomic<Int>(0)
    private let refusedTotal = Atomic<Int>(0)
    private let counter: Counter?
    private let log: RateLimitedLog

    /// - Parameter logInterval: how long a refusal line stands for the
    ///   refusals after it.
    init(
        listener: String,
        limit: Int,
        logger: Logger,
        registry: PrometheusCollectorRegistry?,
        logInterval: TimeAmount
    ) {
        self.limit = limit
        self.counter = registry?.makeCounter(
            name: "aasa_connections_refused_total",
            labels: [("listener", listener)],
            help: "Connections refused with 503 because the listener was at its connection cap."
        )
        var logger = logger
        logger[metadataKey: "server"] = .string(listener)
        self.log = RateLimitedLog(
            logger: logger,
            message: "connection refused: at the connection cap",
            interval: logInterval
        )
    }

    /// How many connections were refused since start.
    var refused: Int { refusedTotal.load(ordering: .relaxed) }

    /// Takes a place for a new connection, or counts the refusal.
    func admit() -> Bool {
        var current = open.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = open.compareExchange(
                expected: current,
                desired: current + 1,
                ordering: .relaxed
            )
            if exchanged { return true }
            current = original
        }
        refusedTotal.wrappingAdd(1, ordering: .relaxed)
        counter?.increment()
        log.record(["limit": .stringConvertible(limit)])
        return false
    }

    func release() {
        open.wrappingSubtract(1, ordering: .relaxed)
    }
}
