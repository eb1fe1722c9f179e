import NIOConcurrencyHelpers
import NIOCore

/// The ``ResponseCache`` of each event loop a server's connections run on,
/// handed to each connection when it is set up (once per connection, never
/// per request).
final class ResponseCaches: Sendable {
    /// Keyed by the loop's identity. The loop itself is kept (strongly: a
    /// weak reference would move it to a side table, and every retain of it
    /// on the request path would take the slow path), so an identifier is
    /// never reused by another loop while its cache is here.
    private let caches = NIOLockedValueBox<
        [ObjectIdentifier: (loop: any EventLoop, cache: NIOLoopBound<ResponseCache>)]
    >(
        [:]
    )
    let budget: Int

    init(budget: Int = ResponseCache.defaultBudget) {
        self.budget = budget
    }

    /// The cache of `loop`; call it on `loop`.
    func cache(for loop: any EventLoop) -> ResponseCache {
        let bound = caches.withLockedValue { caches in
            let id = ObjectIdentifier(loop)
            if let existing = caches[id] { return existing.cache }
            let cache = NIOLoopBound(ResponseCache(budget: budget), eventLoop: loop)
            caches[id] = (loop, cache)
            return cache
        }
        return bound.value
    }
}
