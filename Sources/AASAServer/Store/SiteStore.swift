import Foundation
import NIOConcurrencyHelpers

/// Holds the snapshot being served and what the last loads said about it.
///
/// The request path takes the current snapshot (a lock and a retain); the
/// reloader replaces it whole. A failed load never touches it.
public final class SiteStore: Sendable {
    private let current: NIOLockedValueBox<SiteSnapshot>
    private let state: NIOLockedValueBox<Status>
    private let waiters = NIOLockedValueBox<[(Int, CheckedContinuation<SiteSnapshot, Never>)]>([])

    /// What `/status` and `/readyz` report.
    public struct Status: Sendable {
        /// The first load has completed.
        public var isReady: Bool
        public var lastReload: Date?
        public var lastReloadDuration: Duration?
        /// Why the last load could not read the directory at all, if it could not.
        public var lastFailure: String?
        /// Current problems per host (`nil` key: not tied to one host).
        public var issues: [LoadIssue]
        public var warnings: [LoadIssue]
        /// The last error seen for each host, kept after the host recovers.
        public var lastErrors: [String: LastError]
    }

    public struct LastError: Sendable {
        public var message: String
        public var at: Date
    }

    public init() {
        current = NIOLockedValueBox(.empty)
        state = NIOLockedValueBox(
            Status(isReady: false, lastReload: nil, issues: [], warnings: [], lastErrors: [:])
        )
    }

    /// The snapshot to answer one request with.
    @inline(__always)
    public var snapshot: SiteSnapshot {
        current.withLockedValue { $0 }
    }

    public var status: Status {
        state.withLockedValue { $0 }
    }

    /// Waits for a snapshot newer than `generation` (the first load is 1).
    /// Lets tests and tools wait for a reload instead of sleeping.
    public func snapshot(after generation: Int) async -> SiteSnapshot {
        await withCheckedContinuation { continuation in
            let ready: SiteSnapshot? = current.withLockedValue { snapshot in
                if snapshot.generation > generation { return snapshot }
                waiters.withLockedValue { $0.append((generation, continuation)) }
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Swaps in a new snapshot and records the load.
    func install(_ outcome: LoadOutcome, duration: Duration) {
        let ready = current.withLockedValue { snapshot -> [CheckedContinuation<SiteSnapshot, Never>] in
            guard snapshot !== outcome.snapshot else { return [] }
            snapshot = outcome.snapshot
            return waiters.withLockedValue { waiters in
                let ready = waiters.filter { $0.0 < outcome.snapshot.generation }
                waiters.removeAll { $0.0 < outcome.snapshot.generation }
                return ready.map(\.1)
            }
        }
        for waiter in ready { waiter.resume(returning: outcome.snapshot) }
        state.withLockedValue { status in
            let now = Date()
            status.isReady = true
            status.lastReload = now
            status.lastReloadDuration = duration
            status.lastFailure = nil
            status.issues = outcome.issues
            status.warnings = outcome.warnings
            for issue in outcome.issues {
                status.lastErrors[issue.host ?? "-"] = LastError(message: issue.description, at: now)
            }
        }
    }

    /// Records a load that could not read the directory; the snapshot stays.
    func recordFailure(_ message: String) {
        state.withLockedValue { status in
            status.lastFailure = message
            status.lastErrors["-"] = LastError(message: message, at: Date())
        }
    }
}
