import NIOConcurrencyHelpers

/// Lets one reload run at a time, in the order they were asked for: two
/// reloads started together (SIGHUP while a poll runs) would otherwise both
/// read the same previous snapshot and both build its successor.
///
/// A waiting reload is not cancellable: reloads are short, and one that was
/// asked for should happen.
final class ReloadGate: Sendable {
    private struct State {
        var busy = false
        var queue: [CheckedContinuation<Void, Never>] = []
    }

    private let state = NIOLockedValueBox(State())
    /// Called with the number of reloads waiting each time one starts to
    /// wait, so a test can tell a reload is queued rather than running.
    private let onWait: (@Sendable (Int) -> Void)?

    init(onWait: (@Sendable (Int) -> Void)? = nil) {
        self.onWait = onWait
    }

    /// Runs `body` once every reload asked for before it has finished.
    func withTurn<T: Sendable>(_ body: () async -> T) async -> T {
        await enter()
        defer { leave() }
        return await body()
    }

    private func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiting = state.withLockedValue { state -> Int? in
                guard state.busy else {
                    state.busy = true
                    return nil
                }
                state.queue.append(continuation)
                return state.queue.count
            }
            if let waiting {
                onWait?(waiting)
            } else {
                continuation.resume()
            }
        }
    }

    private func leave() {
        // The turn passes straight to the next in line: `busy` stays set.
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard !state.queue.isEmpty else {
                state.busy = false
                return nil
            }
            return state.queue.removeFirst()
        }
        next?.resume()
    }
}
