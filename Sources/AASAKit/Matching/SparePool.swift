import Foundation

/// Values a chunk of a parallel rendering takes and gives back when done
/// (the outcomes it rendered, kept from window to window): a later chunk,
/// on whichever thread, finds them made instead of making them again.
package final class SparePool<Value>: @unchecked Sendable {
    // Unchecked Sendable: `spare` is read and written under `lock` only,
    // and a value is held by one chunk at a time.
    private let lock = NSLock()
    private var spare: [Value] = []

    package init() {}

    /// A value given back earlier, else `make()`.
    package func take(or make: () -> Value) -> Value {
        lock.withLock { spare.popLast() } ?? make()
    }

    package func giveBack(_ value: Value) {
        lock.withLock { spare.append(value) }
    }
}
