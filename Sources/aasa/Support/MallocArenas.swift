#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How glibc's `malloc` is set up for the process, decided by the
/// command before any thread but the main one has allocated.
enum MallocArenas {
    /// The commands that run once over a long list on two threads.
    static let batchCommands: Set<String> = ["test-links", "validate-universal-links"]

    /// One arena, grown 64 MiB of address space at a time, for a batch
    /// command; glibc's default (an arena per thread) for the others.
    ///
    /// glibc gives each new thread an arena of its own and grows it one
    /// page per `mprotect`, each taking the address space's lock for
    /// writing: `test-links` over 100,000 URLs made ~2,400 of those calls
    /// (~7 ms of CPU, and the other core's page faults waited on the
    /// lock); the main arena grows by `brk` with the padding given here
    /// and took ten. The server keeps an arena per thread: its event
    /// loops allocate at the same time all the time, and would queue on
    /// one arena's lock.
    static func configure(command: String?) {
        #if canImport(Glibc)
        guard let command, batchCommands.contains(command), let mallopt = Self.mallopt else { return }
        _ = mallopt(arenaMax, 1)
        _ = mallopt(topPad, 64 << 20)
        #else
        // Darwin's allocator has no such knobs (and grows its zones in large regions).
        #endif
    }

    #if canImport(Glibc)
    /// `mallopt`, found at run time: the Glibc module leaves out
    /// `<malloc.h>`, which declares it and its parameters.
    private static var mallopt: (@convention(c) (Int32, Int32) -> Int32)? {
        dlsym(nil, "mallopt").map { unsafeBitCast($0, to: (@convention(c) (Int32, Int32) -> Int32).self) }
    }

    /// `M_ARENA_MAX` and `M_TOP_PAD` of `<malloc.h>`.
    private static let arenaMax: Int32 = -8
    private static let topPad: Int32 = -2
    #endif
}
