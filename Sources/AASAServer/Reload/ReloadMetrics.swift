import Metrics
import NIOConcurrencyHelpers

/// The reloader's metrics: `aasa_reloads_total{result,trigger}`,
/// `aasa_hosts`, `aasa_files_rejected`, `aasa_reload_duration_seconds` and
/// `aasa_tls_certificate_expiry_timestamp_seconds{host}` (the `notAfter`
/// of every loaded certificate as a Unix time, so an alert can fire weeks
/// before one expires; `host="(default)"` is the configured default).
struct ReloadMetrics: Sendable {
    static let defaultIdentityLabel = "(default)"

    let factory: any MetricsFactory
    let hosts: Gauge
    let rejected: Gauge
    let duration: Metrics.Timer
    /// Hosts with an expiry series, so a series goes when its certificate does.
    private let expiryHosts = NIOLockedValueBox<Set<String>>([])

    init(factory: any MetricsFactory) {
        self.factory = factory
        hosts = Gauge(label: "aasa_hosts", factory: factory)
        rejected = Gauge(label: "aasa_files_rejected", factory: factory)
        duration = Metrics.Timer(
            label: "aasa_reload_duration_seconds",
            dimensions: [],
            preferredDisplayUnit: .seconds,
            factory: factory
        )
    }

    func countReload(result: String, trigger: ReloadTrigger) {
        Counter(
            label: "aasa_reloads_total",
            dimensions: [("result", result), ("trigger", trigger.rawValue)],
            factory: factory
        )
        .increment()
    }

    func record(duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.duration.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// Sets the expiry of every identity in `snapshot` and removes the
    /// series of identities no longer loaded.
    func recordCertificates(of snapshot: SiteSnapshot) {
        var expiries: [String: Double] = [:]
        for host in snapshot.sites.values {
            if let identity = host.tls?.identity {
                expiries[host.name] = identity.notValidAfter.timeIntervalSince1970
            }
        }
        if let identity = snapshot.defaultIdentity?.identity {
            expiries[Self.defaultIdentityLabel] = identity.notValidAfter.timeIntervalSince1970
        }
        let gone = expiryHosts.withLockedValue { known in
            defer { known = Set(expiries.keys) }
            return known.subtracting(expiries.keys)
        }
        for host in gone {
            expiryGauge(host).destroy()
        }
        for (host, expiry) in expiries {
            expiryGauge(host).record(expiry)
        }
    }

    private func expiryGauge(_ host: String) -> Gauge {
        Gauge(label: "aasa_tls_certificate_expiry_timestamp_seconds", dimensions: [("host", host)], factory: factory)
    }
}
