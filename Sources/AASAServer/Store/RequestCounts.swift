import Atomics
import NIOConcurrencyHelpers

/// `aasa_requests_total{host,status}`, counted by the server itself.
///
/// Registering one labelled counter per host and status in swift-prometheus
/// 2.4 copies the metric family on every new label set, so loading 10,000
/// hosts took minutes; and the request path needs nothing but an atomic add.
/// The counts live here, keyed by host name so they survive reloads, and are
/// rendered into `/metrics` beside the registry's own output.
public final class RequestCountTable: Sendable {
    private let table = NIOLockedValueBox<[String: RequestCounts]>([:])

    public init() {}

    /// The counts of `host`, created on first use (at load, never per request).
    func counts(for host: String) -> RequestCounts {
        table.withLockedValue { table in
            if let counts = table[host] { return counts }
            let counts = RequestCounts()
            table[host] = counts
            return counts
        }
    }

    /// Prometheus text exposition of every non-zero count.
    public func render() -> String {
        let snapshot = table.withLockedValue { $0 }
        var text = "# TYPE aasa_requests_total counter\n"
        for host in snapshot.keys.sorted() {
            guard let counts = snapshot[host] else { continue }
            for status in EncodedResponse.Status.allCases {
                let value = counts.value(status)
                // Host names are validated to [a-z0-9._*-]: nothing to escape.
                if value > 0 {
                    text += "aasa_requests_total{host=\"\(host)\",status=\"\(status.rawValue)\"} \(value)\n"
                }
            }
        }
        return text
    }
}

/// One host's request counts by status.
final class RequestCounts: Sendable {
    private let counts: [ManagedAtomic<Int>] = EncodedResponse.Status.allCases.map { _ in ManagedAtomic(0) }

    @inline(__always)
    func increment(_ status: EncodedResponse.Status) {
        counts[status.ordinal].wrappingIncrement(ordering: .relaxed)
    }

    func value(_ status: EncodedResponse.Status) -> Int {
        counts[status.ordinal].load(ordering: .relaxed)
    }
}
