#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How glibc's `malloc` is set up for the process, decided by the
/// command at start; the setting holds for every thread.
enum MallocArenas {
    /// The commands that run once over a long list on two threads.
    static let batchCommands: Set<String> = ["test-links", "validate-universal-links"]

    /// Each thread's arena made readable and writable 64 MiB at once (of
    /// the 64 MiB of address space glibc reserves for it anyway) for a
    /// batch command; glibc's default for the others.
    ///
    /// glibc grows a thread's arena one page per `mprotect`, each taking
    /// the address space's lock for writing: `test-links` over 100,000
    /// URLs made ~2,400 of those calls, ~7 ms of CPU, and the other
    /// threads' page faults and `mmap`s waited on the lock. With the pad
    /// an arena is made writable once, when it is made (its pages are
    /// still faulted in only when used): 12 calls. One arena for every
    /// thread (`M_ARENA_MAX` 1) took as few calls, but its lock, taken by
    /// both cores' allocations, made runs of thousands of futex waits.
    ///
    /// Setting the pad also fixes glibc's mmap threshold at its 128 KiB
    /// default (it no longer rises as large blocks are freed): every block
    /// above it is a mapping of its own, returned to the kernel when freed.
    /// The run's big arrays are made once and kept until exit, and the
    /// measurement above includes that.
    static func configure(command: String?) {
        #if canImport(Glibc)
        guard let command, batchCommands.contains(command), let mallopt = Self.mallopt else { return }
        _ = mallopt(topPad, 64 << 20)
        #else
        // Darwin's allocator has no such knob (and grows its zones in large regions).
        #endif
    }

    #if canImport(Glibc)
    /// `mallopt`, found at run time: the Glibc module leaves out
    /// `<malloc.h>`, which declares it and its parameters.
    static var mallopt: (@convention(c) (Int32, Int32) -> Int32)? {
        dlsym(nil, "mallopt").map { unsafeBitCast($0, to: (@convention(c) (Int32, Int32) -> Int32).self) }
    }

    /// `M_TOP_PAD` of `<malloc.h>`.
    private static let topPad: Int32 = -2
    #endif
}
