import Foundation
import NIOConcurrencyHelpers
import Synchronization

/// Holds the snapshot being served and what the last loads said about it.
///
/// The reloader replaces the snapshot whole; a failed load never touches it.
/// The request path reads ``swapCount`` (one load, no lock) and takes the
/// snapshot under the lock only when it changed (``HostTable/withSnapshot(of:_:)``).
public final class SiteStore: Sendable {
    private let current: NIOLockedValueBox<SiteSnapshot>
    /// The swaps of `current` so far, bumped under its lock.
    private let swaps = Atomic<Int>(0)
    private let state: NIOLockedValueBox<Status>
    /// Tasks waiting for a newer generation; guarded by `current`'s lock too,
    /// so a waiter is never added after the swap that should have woken it.
    private let waiters = NIOLockedValueBox<Waiters>(Waiters())

    /// What `/status` and `/readyz` report.
    public struct Status: Sendable {
        /// The first load has completed.
        public var isReady: Bool
        /// When the served state was last reloaded: at startup, on SIGHUP,
        /// or on a poll that found something new (a changed, added, removed
        /// or rejected file). A poll that found nothing new is not a reload.
        public var lastReload: Date?
        public var lastReloadDuration: Duration?
        /// Why the last load could not read the directory at all, if it could not.
        public var lastFailure: String?
        /// Current problems per host (`nil` key: not tied to one host).
        public var issues: [LoadIssue]
        public var warnings: [LoadIssue]
        /// The last error seen for each host, kept after the host recovers.
        public var lastErrors: [String: LastError]
        /// Counts the changes above (reloads and failed loads; an idle poll
        /// changes nothing): `/status` keeps its report per snapshot and
        /// revision.
        public var revision = 0
    }

    public struct LastError: Sendable {
        public var message: String
        public var at: Date
    }

    private struct Waiters {
        var nextID = 0
        var waiting: [(id: Int, generation: Int, continuation: CheckedContinuation<SiteSnapshot, any Error>)] = []
    }

    public init() {
        current = NIOLockedValueBox(.empty)
        state = NIOLockedValueBox(
            Status(isReady: false, lastReload: nil, issues: [], warnings: [], lastErrors: [:])
        )
    }

    /// The snapshot served now, read under the lock (SNI, admin, the
    /// reloader); requests read it through ``HostTable/withSnapshot(of:_:)``.
    public var snapshot: SiteSnapshot {
        current.withLockedValue { $0 }
    }

    /// How many times the snapshot was swapped, read without the lock: a
    /// reader that holds the snapshot it took at this count holds the
    /// current one.
    @inline(__always)
    var swapCount: Int { swaps.load(ordering: .acquiring) }

    /// The snapshot and the ``swapCount`` it was installed at, read together.
    var snapshotAndSwapCount: (snapshot: SiteSnapshot, swapCount: Int) {
        current.withLockedValue { ($0, swaps.load(ordering: .relaxed)) }
    }

    public var status: Status {
        state.withLockedValue { $0 }
    }

    /// The snapshot served and the status of the load that installed it,
    /// read at one moment (a reload between two separate reads would pair
    /// a new snapshot with the previous load's issues).
    var snapshotAndStatus: (snapshot: SiteSnapshot, status: Status) {
        current.withLockedValue { snapshot in (snapshot, state.withLockedValue { $0 }) }
    }

    /// Waits for a snapshot newer than `generation` (the first load is 1).
    /// Lets tests and tools wait for a reload instead of sleeping; throws
    /// `CancellationError` when the waiting task is cancelled (a test's time
    /// limit), so nothing hangs on a reload that never comes.
    public func snapshot(after generation: Int) async throws -> SiteSnapshot {
        let id = waiters.withLockedValue { waiters in
            defer { waiters.nextID += 1 }
            return waiters.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready: Result<SiteSnapshot, any Error>? = current.withLockedValue { snapshot in
                    if snapshot.generation > generation { return .success(snapshot) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    waiters.withLockedValue { $0.waiting.append((id, generation, continuation)) }
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let cancelled = current.withLockedValue { _ in
                waiters.withLockedValue { waiters in
                    let index = waiters.waiting.firstIndex { $0.id == id }
                    return index.map { waiters.waiting.remove(at: $0).continuation }
                }
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// Swaps in a new snapshot and records the load. `isReload` says whether
    /// it counts as a reload (see ``Status/lastReload``).
    func install(_ outcome: LoadOutcome, duration: Duration, isReload: Bool = true) {
        // The status is recorded under the snapshot's lock too, so that
        // ``snapshotAndStatus`` never pairs a new snapshot with the status
        // of the load before it.
        let ready = current.withLockedValue { snapshot -> [CheckedContinuation<SiteSnapshot, any Error>] in
            record(outcome, duration: duration, isReload: isReload)
            guard snapshot !== outcome.snapshot else { return [] }
            snapshot = outcome.snapshot
            // Released after the snapshot is in place: a loop that reads the
            // new count takes the new snapshot.
            swaps.add(1, ordering: .releasing)
            return waiters.withLockedValue { waiters in
                let generation = outcome.snapshot.generation
                let ready = waiters.waiting.filter { $0.generation < generation }.map(\.continuation)
                waiters.waiting.removeAll { $0.generation < generation }
                return ready
            }
        }
        for waiter in ready { waiter.resume(returning: outcome.snapshot) }
    }

    private func record(_ outcome: LoadOutcome, duration: Duration, isReload: Bool) {
        state.withLockedValue { status in
            let now = Date()
            status.isReady = true
            if isReload {
                status.revision += 1
                status.lastReload = now
                status.lastReloadDuration = duration
            }
            status.lastFailure = nil
            // An issue still there from the previous load keeps the time it was first seen.
            let known = Set(status.issues)
            for issue in outcome.issues where !known.contains(issue) {
                status.lastErrors[issue.host ?? "-"] = LastError(message: issue.description, at: now)
            }
            status.issues = outcome.issues
            status.warnings = outcome.warnings
        }
    }

    /// Records a load that could not read the directory; the snapshot stays.
    func recordFailure(_ message: String) {
        state.withLockedValue { status in
            status.revision += 1
            status.lastFailure = message
            status.lastErrors["-"] = LastError(message: message, at: Date())
        }
    }
}
