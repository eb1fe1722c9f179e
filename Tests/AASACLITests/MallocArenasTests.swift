import ArgumentParser
import Testing

@testable import aasa

@Suite("aasa: malloc set up per command")
struct MallocArenasTests {
    /// The batch set is matched against the first argument: a command
    /// renamed without it would silently go back to an arena per thread.
    @Test func theBatchCommandsAreTheLinkTestCommandsByTheirNames() {
        let names = [TestLinksCommand.self, ValidateUniversalLinksCommand.self].map {
            $0.configuration.commandName
        }
        #expect(Set(names.compactMap { $0 }) == MallocArenas.batchCommands)
        #expect(!MallocArenas.batchCommands.contains(ServeCommand.configuration.commandName ?? ""))
    }
}
