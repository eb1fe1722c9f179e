import NIOConcurrencyHelpers
import Synchronization

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
///
/// One stored atomic per status, not an array of them: the request path's
/// increment is then a single `lock xadd`, with no array or box to retain.
final class RequestCounts: Sendable {
    private let ok = Atomic<Int>(0)
    private let notModified = Atomic<Int>(0)
    private let preconditionFailed = Atomic<Int>(0)
    private let badRequest = Atomic<Int>(0)
    private let notFound = Atomic<Int>(0)
    private let methodNotAllowed = Atomic<Int>(0)
    private let uriTooLong = Atomic<Int>(0)
    private let requestHeaderFieldsTooLarge = Atomic<Int>(0)
    private let serviceUnavailable = Atomic<Int>(0)

    @inline(__always)
    func increment(_ status: EncodedResponse.Status) {
        switch status {
        case .ok: ok.wrappingAdd(1, ordering: .relaxed)
        case .notModified: notModified.wrappingAdd(1, ordering: .relaxed)
        case .preconditionFailed: preconditionFailed.wrappingAdd(1, ordering: .relaxed)
        case .badRequest: badRequest.wrappingAdd(1, ordering: .relaxed)
        case .notFound: notFound.wrappingAdd(1, ordering: .relaxed)
        case .methodNotAllowed: methodNotAllowed.wrappingAdd(1, ordering: .relaxed)
        case .uriTooLong: uriTooLong.wrappingAdd(1, ordering: .relaxed)
        case .requestHeaderFieldsTooLarge: requestHeaderFieldsTooLarge.wrappingAdd(1, ordering: .relaxed)
        case .serviceUnavailable: serviceUnavailable.wrappingAdd(1, ordering: .relaxed)
        }
    }

    func value(_ status: EncodedResponse.Status) -> Int {
        switch status {
        case .ok: ok.load(ordering: .relaxed)
        case .notModified: notModified.load(ordering: .relaxed)
        case .preconditionFailed: preconditionFailed.load(ordering: .relaxed)
        case .badRequest: badRequest.load(ordering: .relaxed)
        case .notFound: notFound.load(ordering: .relaxed)
        case .methodNotAllowed: methodNotAllowed.load(ordering: .relaxed)
        case .uriTooLong: uriTooLong.load(ordering: .relaxed)
        case .requestHeaderFieldsTooLarge: requestHeaderFieldsTooLarge.load(ordering: .relaxed)
        case .serviceUnavailable: serviceUnavailable.load(ordering: .relaxed)
        }
    }
}
