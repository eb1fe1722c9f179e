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
/// bad file keeps that host's previous version (see ``SiteLoader``). Loads
/// run one at a time. A poll that finds nothing new is not a reload: it
/// moves no metric, no `lastReload` and writes no log line.
public struct SiteReloader: Service {
    let store: SiteStore
    let loader: SiteLoader
    let pollInterval: Duration?
    let logger: Logger
    private let metrics: ReloadMetrics
    private let gate: ReloadGate

    public init(
        store: SiteStore,
        loader: SiteLoader,
        pollInterval: Duration?,
        logger: Logger,
        metrics: any MetricsFactory = MetricsSystem.factory
    ) {
        self.init(
            store: store,
            loader: loader,
            pollInterval: pollInterval,
            logger: logger,
            metrics: metrics,
            gate: ReloadGate()
        )
    }

    init(
        store: SiteStore,
        loader: SiteLoader,
        pollInterval: Duration?,
        logger: Logger,
        metrics: any MetricsFactory,
        gate: ReloadGate
    ) {
        self.store = store
        self.loader = loader
        self.pollInterval = pollInterval
        self.logger = logger
        self.metrics = ReloadMetrics(factory: metrics)
        self.gate = gate
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

    /// One load, after any load already running, off the cooperative pool
    /// (it does blocking file I/O).
    @discardableResult
    public func reload(_ trigger: ReloadTrigger) async -> LoadOutcome? {
        await gate.withTurn { await load(trigger) }
    }

    private func load(_ trigger: ReloadTrigger) async -> LoadOutcome? {
        let loader = self.loader
        let previous = store.snapshot
        let force = trigger != .poll
        do {
            let (outcome, duration) = try await NIOThreadPool.singleton.runIfActive {
                let clock = ContinuousClock()
                let start = clock.now
                let outcome = try loader.load(previous: previous, force: force)
                return (outcome, clock.now - start)
            }
            install(outcome, previous: previous, duration: duration, trigger: trigger)
            return outcome
        } catch {
            // No absolute path here: this is what `/status` shows. The log has it.
            let reason = (error as? FileSystemError)?.reason ?? "\(error)"
            var message = "cannot read the served directory: \(reason)"
            if previous.generation > 0 { message += "; still serving the previous state" }
            if store.status.lastFailure != message {
                logger.error(
                    "reload failed",
                    metadata: [
                        "reload.trigger": "\(trigger)", "reload.error": "\(message)",
                        "aasa.directory": "\(loader.directory)",
                    ]
                )
            }
            store.recordFailure(message)
            // Every failed attempt counts: the rate is what an alert watches.
            metrics.countReload(result: "failed", trigger: trigger)
            return nil
        }
    }

    /// The first load, before the listeners start. In strict mode any
    /// rejected file is fatal, so a deploy pipeline stops on it.
    public func initialLoad(strict: Bool) async throws(StartupError) {
        guard let outcome = await reload(.startup) else {
            throw StartupError(message: "\(loader.directory): \(store.status.lastFailure ?? "cannot be read")")
        }
        if strict, !outcome.issues.isEmpty {
            throw StartupError(
                message: "--strict: \(outcome.issues.count) problem(s):\n"
                    + outcome.issues.map { "  \($0)" }.joined(separator: "\n")
            )
        }
    }

    private func install(_ outcome: LoadOutcome, previous: SiteSnapshot, duration: Duration, trigger: ReloadTrigger) {
        let before = store.status
        // A reload is what an operator asked for (startup, SIGHUP) or a poll
        // that found something new; an idle poll changes nothing visible.
        let isReload =
            trigger != .poll || outcome.snapshot !== previous || outcome.filesValidated > 0
            || outcome.issues != before.issues || outcome.warnings != before.warnings || before.lastFailure != nil
        store.install(outcome, duration: duration, isReload: isReload)
        guard isReload else { return }
        let snapshot = outcome.snapshot
        ReloadLog(logger: logger).record(
            issues: outcome.issues,
            warnings: outcome.warnings,
            missing: outcome.stillServedWhileMissing,
            before: before,
            missingBefore: previous.missing,
            isServed: { path in snapshot.serves(path: path) }
        )
        let hosts = Set(snapshot.sites.values.map { ObjectIdentifier($0) }).count
        logger.info(
            "reloaded",
            metadata: [
                "reload.trigger": "\(trigger)", "reload.generation": "\(snapshot.generation)",
                "reload.validated": "\(outcome.filesValidated)", "reload.rejected": "\(outcome.issues.count)",
                "aasa.hosts": "\(hosts)", "reload.duration": "\(duration)",
            ]
        )
        metrics.countReload(result: outcome.issues.isEmpty ? "ok" : "rejected", trigger: trigger)
        metrics.hosts.record(hosts)
        metrics.rejected.record(outcome.issues.count)
        metrics.record(duration: duration)
        metrics.recordCertificates(of: snapshot)
    }
}

/// Why `aasa serve` could not start.
public struct StartupError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
