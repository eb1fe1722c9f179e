import Synchronization

/// Set once graceful shutdown begins, read by each new serving connection.
///
/// swift-nio-extras' `ServerQuiescingHelper` tells a connection accepted
/// while shutdown begins to quiesce in a task on its event loop that can run
/// before that connection's pipeline is set up (the set-up is a later task on
/// the same loop), so the event reaches no handler and the connection would
/// stay open until the group's grace period ends. A connection that starts
/// after this is set quiesces by itself.
final class ShutdownSignal: Sendable {
    private let begun = Atomic<Bool>(false)

    init() {}

    func begin() {
        begun.store(true, ordering: .releasing)
    }

    var hasBegun: Bool {
        begun.load(ordering: .acquiring)
    }
}
