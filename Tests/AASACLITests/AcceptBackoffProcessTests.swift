#if os(Linux)
import Foundation
import Testing

/// A real listener whose `accept` fails (EMFILE) pauses accepting, rather
/// than retrying at every wake-up at 100 % CPU, and accepts again once
/// descriptors are back. The in-process `AcceptBackoffTests` drive the
/// handler on an embedded channel; only a real socket shows whether the
/// event loop stops retrying: with NIO's `AcceptBackoffHandler` alone it
/// did not (millions of failed accepts in 10 s).
///
/// Linux only: the server's limit is lowered while it runs, with
/// util-linux's `prlimit` (Darwin has no command to lower another
/// process's limit), below the descriptors it holds, so connections wait in
/// the backlog and every `accept` fails. The code under test is the same on
/// Darwin (kqueue keeps a failed accept's socket readable just the same).
@Suite("aasa serve when accept fails", .serialized)
struct AcceptBackoffProcessTests {
    /// Failures between two lines of the rate-limited warning (10 s apart):
    /// about 100 with a 100 ms pause; a loop retrying at every wake-up
    /// makes millions.
    static let mostFailuresPerLine = 10_000
    static let loweredLimit = 8

    @Test(.timeLimit(.minutes(1))) func failedAcceptsPauseTheListenerAndItResumes() async throws {
        let prlimit = try SystemTool.locate("prlimit")
        let server = try DescriptorBudgetProcessTests.Server(ulimit: "-S -n 4096")
        defer { server.stop() }
        try server.write("com.first.app")
        let port = try await server.start()
        let pid = server.process.processIdentifier

        // Below what it holds at rest (stdio, the listeners, the event
        // loops' descriptors: about 20), so no new descriptor fits.
        let lowered = try await prlimit.run(["--pid", "\(pid)", "--nofile=\(Self.loweredLimit):"])
        try #require(lowered.status == 0, "prlimit: \(lowered.errorText)")
        // Connected by the kernel, never accepted while the limit is down.
        let waiting = try (0..<4).map { _ in try HeldConnection(port: port) }

        let first = try #require(await server.lines.first { $0.contains("accept failed") })
        #expect(LogLine.field("count", of: first) == "1")
        // The next line says how many failed since the first.
        let next = try #require(await server.lines.first(within: 40) { $0.contains("accept failed") })
        let failures = try #require(LogLine.field("count", of: next).flatMap { Int($0) })
        #expect(failures < Self.mostFailuresPerLine, "\(failures) failed accepts between two lines")

        let restored = try await prlimit.run(["--pid", "\(pid)", "--nofile=4096:"])
        try #require(restored.status == 0, "prlimit: \(restored.errorText)")
        for connection in waiting {
            try connection.write(DescriptorBudgetProcessTests.request)
            let response = try #require(try connection.readResponse(), "accepting resumed")
            #expect(response.status == 200 && response.body.contains("com.first.app"))
        }
    }
}
#endif
