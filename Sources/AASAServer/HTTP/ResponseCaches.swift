import NIOConcurrencyHelpers
import NIOCore

/// The ``ResponseCache`` of each event loop a server's connections run on,
/// handed to each connection when it is set up (once per connection, never
/// per request).
final class ResponseCaches: Sendable {
    private struct Slot {
        /// Weak: an identifier can be reused once its loop is gone (test
        /// channels come and go), and then a new cache is made.
        weak var loop: (any EventLoop)?
        let cache: NIOLoopBound<ResponseCache>
    }

    let budget: Int
    private let slots = NIOLockedValueBox<[ObjectIdentifier: Slot]>([:])

    init(budget: Int = ResponseCache.defaultBudget) {
        self.budget = budget
    }

    /// The cache of `loop`; call it on `loop`.
    func cache(for loop: any EventLoop) -> ResponseCache {
        let id = ObjectIdentifier(loop)
        let bound = slots.withLockedValue { slots in
            if let slot = slots[id], slot.loop === loop { return slot.cache }
            // Dead loops' slots go with the next new one: the table stays as
            // small as the set of live loops.
            slots = slots.filter { $0.value.loop != nil }
            let cache = NIOLoopBound(ResponseCache(budget: budget), eventLoop: loop)
            slots[id] = Slot(loop: loop, cache: cache)
            return cache
        }
        return bound.value
    }
}
