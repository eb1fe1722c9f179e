import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The exit of a child process, awaited with a deadline: `waitUntilExit`
/// has none, and a server that ignores SIGTERM would hang the test run.
struct ProcessExit: Sendable {
    /// Signalled by the termination handler.
    private let exited = DispatchSemaphore(value: 0)

    /// Watches `process`; call before `process.run()`.
    init(of process: Process) {
        process.terminationHandler = { [exited] _ in exited.signal() }
    }

    /// Waits for the exit, at most `seconds`.
    /// - Returns: whether it exited (`terminationStatus` then says how).
    func wait(within seconds: Double = 20) -> Bool {
        guard exited.wait(timeout: .now() + seconds) == .success else { return false }
        // Lets the next waiter through too: the exit happens once.
        exited.signal()
        return true
    }

    /// Sends SIGTERM, as a service manager stops a server, and waits for
    /// the exit; nothing when it is not running. Still running after 20 s
    /// is a finding: recorded, and killed so the run goes on.
    func terminate(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        guard !wait() else { return }
        Issue.record("pid \(process.processIdentifier) did not exit within 20 s of SIGTERM; killed")
        kill(process.processIdentifier, SIGKILL)
        if !wait(within: 10) { Issue.record("pid \(process.processIdentifier) did not exit after SIGKILL either") }
    }
}
