import Foundation

/// A value made on a thread of its own while the caller goes on with other
/// work; ``value()`` waits for it.
///
/// A thread, not a dispatch work item, so that the caller's own
/// ``ParallelBatch`` still finds the dispatch workers it counts on.
package final class BackgroundValue<Value: Sendable>: @unchecked Sendable {
    // Unchecked Sendable: `result` is written once, by the thread, before
    // it signals `done`, and read only after waiting for that signal.
    private var result: Value?
    private let done = DispatchSemaphore(value: 0)

    /// Made on a thread of its own when `background`, else here at once
    /// (a short list's value costs less than starting a thread).
    package init(background: Bool = true, _ make: @escaping @Sendable () -> Value) {
        guard background else {
            result = make()
            done.signal()
            return
        }
        let thread = Thread { [self] in
            result = make()
            done.signal()
        }
        // Its value is waited for (Darwin starts a thread at the default
        // quality of service, below the waiting thread's).
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    /// The value, once made (waits for it; any number of calls).
    package func value() -> Value {
        done.wait()
        defer { done.signal() }
        return result!
    }
}
