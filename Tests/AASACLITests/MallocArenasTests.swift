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

    #if canImport(Glibc)
    /// The setting is made through `mallopt` found at run time: were the
    /// lookup to fail, the batch commands would silently keep the default.
    /// (Darwin's allocator has no such setting: nothing is looked up there.)
    @Test func mallocIsFoundWhereItIsGlibcs() {
        #expect(MallocArenas.mallopt != nil)
    }
    #endif
}
