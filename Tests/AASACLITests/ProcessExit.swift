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

    /// ``wait(within:)`` for an async test, off the cooperative pool.
    func exited(within seconds: Double = 20) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: wait(within: seconds)) }
        }
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

extension ProcessExit {
    /// What a child run to its end wrote on the pipes it was given.
    struct Output: Sendable {
        /// Its stdout, when that was a `Pipe` (empty otherwise).
        let output: Data
        /// Its stderr, when that was a `Pipe` (empty otherwise).
        let error: Data
    }

    /// Starts `process` (configured, not yet run) and waits for its exit,
    /// reading its stdout and stderr pipes meanwhile (a full pipe would
    /// block it). Not gone within `seconds` is a finding: recorded, and the
    /// child killed, so a hung child fails its test instead of hanging the
    /// run (`waitUntilExit` and a read to the end of its pipe have no
    /// deadline). `process.terminationStatus` then says how it went.
    static func run(_ process: Process, within seconds: Double = 60) async throws -> Output {
        let exit = ProcessExit(of: process)
        let handles = [process.standardOutput, process.standardError].map { ($0 as? Pipe)?.fileHandleForReading }
        try process.run()
        let pid = process.processIdentifier
        let finished = await withCheckedContinuation { continuation in
            // Off the cooperative pool: every wait here blocks a thread.
            DispatchQueue.global().async {
                continuation.resume(returning: exit.drain(handles, of: pid, within: seconds))
            }
        }
        if !finished.exitedInTime {
            Issue.record("\(process.executableURL?.path ?? "child") did not exit within \(seconds) s; killed")
        }
        if !finished.pipesEnded {
            Issue.record("\(process.executableURL?.path ?? "child")'s pipes stayed open after its exit")
        }
        return finished.output
    }

    private struct Drained {
        var output: Output
        var exitedInTime: Bool
        var pipesEnded: Bool
    }

    /// Reads `handles` to their ends while waiting for the exit, killing
    /// the child at the deadline; blocks the calling thread.
    private func drain(_ handles: [FileHandle?], of pid: Int32, within seconds: Double) -> Drained {
        let reads = DispatchGroup()
        let read = ReadBox(count: handles.count)
        for (index, handle) in handles.enumerated() {
            guard let handle else { continue }
            DispatchQueue.global().async(group: reads) { read.set(index, handle.readDataToEndOfFile()) }
        }
        let exitedInTime = wait(within: seconds)
        if !exitedInTime {
            kill(pid, SIGKILL)
            _ = wait(within: 10)
        }
        // The child's end closes at its exit; a descendant still holding it
        // must not hang the run either.
        let pipesEnded = reads.wait(timeout: .now() + 10) == .success
        return Drained(
            output: Output(output: read.get(0), error: read.get(1)),
            exitedInTime: exitedInTime,
            pipesEnded: pipesEnded
        )
    }

    /// The bytes each reader got, shared between their threads.
    private final class ReadBox: @unchecked Sendable {
        // @unchecked: `data` is only touched under `lock`.
        private let lock = NSLock()
        private var data: [Data]

        init(count: Int) { data = Array(repeating: Data(), count: count) }

        func set(_ index: Int, _ bytes: Data) {
            lock.lock()
            defer { lock.unlock() }
            data[index] = bytes
        }

        func get(_ index: Int) -> Data {
            lock.lock()
            defer { lock.unlock() }
            return data[index]
        }
    }
}
