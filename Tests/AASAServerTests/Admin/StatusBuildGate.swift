import Foundation
import NIOConcurrencyHelpers

/// Holds `/status` builds on their build thread until released, and tells
/// the test when one started: a build in flight made observable, not timed.
final class StatusBuildGate: Sendable {
    private let state = NIOLockedValueBox((builds: 0, open: false))
    private let released = DispatchSemaphore(value: 0)
    private let (started, startedContinuation) = AsyncStream<Void>.makeStream()

    /// Builds started so far.
    var builds: Int { state.withLockedValue { $0.builds } }

    /// The build hook: counts, reports, then waits for ``release()`` (at
    /// most 30 seconds, so a failing test cannot hang a build thread).
    @Sendable func hold() {
        let open = state.withLockedValue { state in
            state.builds += 1
            return state.open
        }
        startedContinuation.yield()
        if !open { _ = released.wait(timeout: .now() + 30) }
    }

    /// Waits until a build has started (the caller bounds it with a deadline).
    func waitForBuild() async {
        for await _ in started { return }
    }

    /// Lets the held build and every later one run.
    func release() {
        state.withLockedValue { $0.open = true }
        released.signal()
    }
}
