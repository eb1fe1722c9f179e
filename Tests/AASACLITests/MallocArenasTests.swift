import ArgumentParser
import Testing

@testable import aasa

@Suite("aasa: malloc set up per command")
struct MallocArenasTests {
    /// The batch set is matched against the first argument: a command
    /// renamed without it would silently go back to arenas grown a page at a time.
    @Test func theBatchCommandsAreTheLinkTestCommandsByTheirNames() {
        let names = [TestLinksCommand.configuration, ValidateUniversalLinksCommand.configuration].compactMap(
            \.commandName
        )
        #expect(Set(names) == MallocArenas.batchCommands)
        #expect(!MallocArenas.batchCommands.contains(ServeCommand.configuration.commandName ?? ""))
    }
}
