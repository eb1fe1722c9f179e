/// The descriptors the origin needs, set against the open-file limit at
/// startup.
///
/// Every connection holds one descriptor, so the connection caps
/// (`limits.maxConnections`, `admin.maxConnections`) are bounds on
/// descriptors too. Beside them the process needs a reserve that a
/// connection flood must never take: the listeners, the event loops, the
/// loader's files during a reload, TLS identity files, logging. Without it a
/// flood makes every reload fail with EMFILE (a fixed file is never picked
/// up) and, at startup, nothing is served, and nobody is told why.
///
/// ``settle(_:)`` raises the soft limit towards the hard one as far as the
/// caps and the reserve need (what Go's runtime does at start); when even
/// that is not enough, it lowers the caps so the reserve stays free.
struct DescriptorBudget: Sendable, Equatable {
    /// Descriptors held whatever the core count: stdio, up to three
    /// listening sockets, the served root, the signal sources and Dispatch's
    /// own files, the default TLS certificate and key during a reload, with
    /// room to spare. `aasa serve` holds about 20 at rest on Linux.
    static let fixedReserve = 32
    /// Per event loop (one per core): the loop's own descriptors (epoll,
    /// eventfd and timerfd on Linux; kqueue on Darwin), the files a loading
    /// thread holds open during a reload (the load runs one thread per
    /// loop), and refused connections between their accept and their close.
    static let reservePerLoop = 12

    /// `limits.maxConnections`, shared by the HTTP and HTTPS listeners.
    let maxConnections: Int
    /// `admin.maxConnections`; nil when the admin listener is off.
    let adminMaxConnections: Int?
    let eventLoops: Int

    init(maxConnections: Int, adminMaxConnections: Int?, eventLoops: Int) {
        self.maxConnections = maxConnections
        self.adminMaxConnections = adminMaxConnections
        self.eventLoops = max(1, eventLoops)
    }

    init(configuration: ServerConfiguration, eventLoops: Int) {
        self.init(
            maxConnections: configuration.limits.maxConnections,
            adminMaxConnections: configuration.admin == nil ? nil : configuration.adminMaxConnections,
            eventLoops: eventLoops
        )
    }

    /// Descriptors kept free of connections.
    var reserve: Int { Self.fixedReserve + Self.reservePerLoop * eventLoops }

    /// The soft limit at which every configured cap fits beside the reserve.
    var needed: Int { maxConnections + (adminMaxConnections ?? 0) + reserve }

    /// Reads the limit, raises it if the caps need more (as far as the
    /// ceiling allows), and plans the caps for the limit that results.
    func settle(_ source: DescriptorLimit.Source) -> DescriptorPlan {
        guard let before = source.read() else { return plan(for: nil) }
        var limit = before
        let target = min(needed, before.ceiling)
        if target > before.soft, source.raise(target), let after = source.read() {
            limit = after
        }
        return plan(for: limit, raisedFrom: limit.soft > before.soft ? before.soft : nil)
    }

    /// The caps that fit `limit` (all of them as configured when the limit
    /// is unknown).
    ///
    /// When they do not fit, what the reserve leaves goes to the serving
    /// port first; the admin port keeps what the serving cap does not use,
    /// and at least an eighth (at least one connection) so probes and
    /// scrapes still get through a flood.
    func plan(for limit: DescriptorLimit?, raisedFrom: Int? = nil) -> DescriptorPlan {
        var serving = maxConnections
        var admin = adminMaxConnections
        if let limit, limit.soft < needed {
            let available = max(0, limit.soft - reserve)
            if let configured = adminMaxConnections {
                let share = min(configured, max(available - maxConnections, max(1, available / 8)))
                admin = min(share, available)
                serving = max(0, min(maxConnections, available - share))
            } else {
                serving = min(maxConnections, available)
            }
        }
        return DescriptorPlan(
            budget: self,
            limit: limit,
            raisedFrom: raisedFrom,
            effectiveMaxConnections: serving,
            effectiveAdminMaxConnections: admin
        )
    }
}
