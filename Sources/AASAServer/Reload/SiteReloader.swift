import Logging
import Metrics
import NIOPosix
import ServiceLifecycle
import UnixSignals

/// What asked for a reload.
public enum ReloadTrigger: String, Sendable {
    case startup
    /// SIGHUP: every file is re-read, changed or not.
    case signal
    /// The poll timer: only files whose stamp changed are re-read.
    case poll
}

/// Loads the directory on every trigger and swaps the result into the store.
///
/// A load that cannot read the directory keeps the whole previous snapshot; a
/// bad file keeps that host's previous version (see ``SiteLoader``). Failures
/// are logged once when they appear and once when they clear, not on every
/// poll.
public struct SiteReloader: Service {
    let store: SiteStore
    let loader: SiteLoader
    let pollInterval: Duration?
    let logger: Logger
    private let metrics = ReloadMetrics()

    public init(store: SiteStore, loader: SiteLoader, pollInterval: Duration?, logger: Logger) {
        self.store = store
        self.loader = loader
        self.pollInterval = pollInterval
        self.logger = logger
    }

    /// Runs until graceful shutdown: SIGHUP and the poll timer trigger loads.
    /// This is the one place SIGHUP is trapped.
    public func run() async throws {
        let (triggers, continuation) = AsyncStream.makeStream(
            of: ReloadTrigger.self,
            bufferingPolicy: .bufferingNewest(8)
        )
        let pollInterval = self.pollInterval
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await _ in await UnixSignalsSequence(trapping: .sighup) {
                    continuation.yield(.signal)
                }
            }
            if let pollInterval {
                group.addTask {
                    // Ends when the group is cancelled at shutdown.
                    while (try? await Task.sleep(for: pollInterval)) != nil {
                        continuation.yield(.poll)
                    }
                }
            }
            await self.run(triggers: triggers.cancelOnGracefulShutdown())
            group.cancelAll()
        }
    }

    /// Reloads once per element of `triggers` until it ends. Tests drive the
    /// reloader through this seam with their own stream.
    public func run(triggers: some AsyncSequence<ReloadTrigger, Never>) async {
        for await trigger in triggers {
            await reload(trigger)
        }
    }

    /// One load, off the cooperative pool (it does blocking file I/O).
    @discardableResult
    public func reload(_ trigger: ReloadTrigger) async -> LoadOutcome? {
        let loader = self.loader
        let previous = store.snapshot
        let force = trigger != .poll
        do {
            let outcome = try await NIOThreadPool.singleton.runIfActive {
                try Self.timedLoad(loader, previous: previous, force: force)
            }
            return install(outcome.0, duration: outcome.1, trigger: trigger)
        } catch {
            let message = "cannot read \(loader.directory): \(error); still serving the previous state"
            if store.status.lastFailure != message {
                logger.error("reload failed", metadata: ["reload.trigger": "\(trigger)", "reload.error": "\(message)"])
            }
            store.recordFailure(message)
            metrics.record(result: "failed", trigger: trigger)
            return nil
        }
    }

    /// The first load, before the listeners start. In strict mode any
    /// rejected file is fatal, so a deploy pipeline stops on it.
    public func initialLoad(strict: Bool) async throws(StartupError) {
        guard let outcome = await reload(.startup) else {
            throw StartupError(message: store.status.lastFailure ?? "cannot read \(loader.directory)")
        }
        if strict, !outcome.issues.isEmpty {
            throw StartupError(
                message: "--strict: \(outcome.issues.count) problem(s):\n"
                    + outcome.issues.map { "  \($0)" }.joined(separator: "\n")
            )
        }
    }

    private static func timedLoad(
        _ loader: SiteLoader,
        previous: SiteSnapshot,
        force: Bool
    ) throws -> (
        LoadOutcome, Duration
    ) {
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = try loader.load(previous: previous, force: force)
        return (outcome, clock.now - start)
    }

    private func install(_ outcome: LoadOutcome, duration: Duration, trigger: ReloadTrigger) -> LoadOutcome {
        let before = store.status
        store.install(outcome, duration: duration)
        let previousIssues = Set(before.issues)
        let currentIssues = Set(outcome.issues)
        for issue in outcome.issues where !previousIssues.contains(issue) {
            logger.error(
                "file rejected",
                metadata: [
                    "aasa.host": "\(issue.host ?? "-")", "aasa.path": "\(issue.path)",
                    "reload.error": "\(issue.message)",
                ]
            )
        }
        for issue in before.issues where !currentIssues.contains(issue) {
            logger.notice(
                "problem cleared",
                metadata: ["aasa.host": "\(issue.host ?? "-")", "aasa.path": "\(issue.path)"]
            )
        }
        let previousWarnings = Set(before.warnings)
        for warning in outcome.warnings where !previousWarnings.contains(warning) {
            logger.warning(
                "served with a warning",
                metadata: [
                    "aasa.host": "\(warning.host ?? "-")", "aasa.path": "\(warning.path)", "lint": "\(warning.message)",
                ]
            )
        }
        let hosts = Set(outcome.snapshot.sites.values.map { ObjectIdentifier($0) }).count
        if outcome.filesValidated > 0 || previousIssues != currentIssues || trigger != .poll {
            logger.info(
                "reloaded",
                metadata: [
                    "reload.trigger": "\(trigger)", "reload.generation": "\(outcome.snapshot.generation)",
                    "reload.validated": "\(outcome.filesValidated)", "reload.rejected": "\(outcome.issues.count)",
                    "aasa.hosts": "\(hosts)", "reload.duration": "\(duration)",
                ]
            )
        }
        metrics.record(result: outcome.issues.isEmpty ? "ok" : "rejected", trigger: trigger)
        metrics.hosts.record(hosts)
        metrics.rejected.record(outcome.issues.count)
        metrics.duration.record(duration: duration)
        return outcome
    }
}

/// Why `aasa serve` could not start.
public struct StartupError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// `aasa_reloads_total{result,trigger}`, `aasa_hosts`, `aasa_files_rejected`,
/// `aasa_reload_duration_seconds`.
private struct ReloadMetrics: Sendable {
    let hosts = Gauge(label: "aasa_hosts")
    let rejected = Gauge(label: "aasa_files_rejected")
    let duration = Metrics.Timer(label: "aasa_reload_duration_seconds", preferredDisplayUnit: .seconds)

    func record(result: String, trigger: ReloadTrigger) {
        Counter(label: "aasa_reloads_total", dimensions: [("result", result), ("trigger", trigger.rawValue)])
            .increment()
    }
}

extension Metrics.Timer {
    fileprivate func record(duration: Duration) {
        let (seconds, attoseconds) = duration.components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
