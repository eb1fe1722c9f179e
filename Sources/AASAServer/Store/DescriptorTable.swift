#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's table of open descriptors, grown ahead of a load that
/// holds many of them open at once (the scan keeps every host directory
/// open until its host is read).
///
/// Why: Linux grows a full descriptor table by doubling it, and in a
/// process with more than one thread each doubling waits for an RCU grace
/// period (`synchronize_rcu` in `expand_fdtable`), about 15 ms on the
/// machines measured. Opening 10,000 host directories from a table of 64
/// doubled it eight times: ~120 ms in which both scanning threads slept.
/// Asking once for a descriptor at the top of the range grows the table in
/// one step, one grace period. Elsewhere it costs two system calls and
/// changes nothing.
enum DescriptorTable {
    /// Descriptors open beside the ones reserved for (the root, stdio, the
    /// event loops' and the threads' files in flight).
    static let margin = 256

    /// Grows the table to hold `count` more descriptors, as far as the
    /// soft limit allows; on any failure the table simply grows as it
    /// would have. Leaves no descriptor open.
    /// - Returns: the descriptor the table was grown to cover (closed
    ///   again), nil if it was not grown.
    @discardableResult
    static func reserve(_ count: Int) -> Int32? {
        guard count > 0, let soft = softLimit() else { return nil }
        let top = Int32(clamping: min(min(count, soft) + margin, soft - 1))
        let probe = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard probe >= 0 else { return nil }
        defer { close(probe) }
        // The lowest free descriptor at or above `top`: the table grows to
        // cover it in one expansion.
        let high = fcntl(probe, F_DUPFD_CLOEXEC, top)
        guard high >= 0 else { return nil }
        close(high)
        return high
    }

    /// The process's soft `RLIMIT_NOFILE` (clamped to `Int`), nil when it
    /// cannot be read.
    static func softLimit() -> Int? {
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        return Int(clamping: limit.rlim_cur)
    }
}
