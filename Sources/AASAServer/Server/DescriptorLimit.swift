#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit (`RLIMIT_NOFILE`): the soft limit in
/// force, the hard limit, and the highest soft limit this process may set.
struct DescriptorLimit: Sendable, Equatable {
    /// Descriptors this process may hold now (the soft limit).
    var soft: Int
    /// The hard limit: an unprivileged process may raise `soft` up to it.
    var hard: Int
    /// The highest soft limit a raise can reach: the hard limit, and on
    /// Darwin at most `kern.maxfilesperproc` (its `setrlimit` refuses more
    /// for `RLIMIT_NOFILE`, and the hard limit there is often `RLIM_INFINITY`).
    var ceiling: Int

    init(soft: Int, hard: Int, ceiling: Int? = nil) {
        self.soft = soft
        self.hard = hard
        self.ceiling = max(soft, min(hard, ceiling ?? hard))
    }

    /// Where the limit is read and raised: the process itself, or a test's
    /// stand-in (tests may not lower the limit of the process they run in).
    struct Source: Sendable {
        var read: @Sendable () -> DescriptorLimit?
        /// Sets the soft limit; false when the system refused.
        var raise: @Sendable (_ soft: Int) -> Bool

        /// This process's limit, through `getrlimit` and `setrlimit`.
        static let system = Source(read: DescriptorLimit.current, raise: DescriptorLimit.setSoft)
    }

    /// The process's limit now; nil when it cannot be read.
    static func current() -> DescriptorLimit? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        return DescriptorLimit(
            soft: Int(clamping: limit.rlim_cur),
            hard: Int(clamping: limit.rlim_max),
            ceiling: platformCeiling()
        )
    }

    /// Sets the soft limit, keeping the hard one.
    static func setSoft(_ soft: Int) -> Bool {
        var limit = rlimit()
        guard soft > 0, getrlimit(resource, &limit) == 0 else { return false }
        limit.rlim_cur = rlim_t(soft)
        return setrlimit(resource, &limit) == 0
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif

    /// A limit beside the hard one, or nil when there is none. On Linux
    /// the hard limit is itself bounded by `fs.nr_open`, so it is the ceiling.
    private static func platformCeiling() -> Int? {
        #if canImport(Darwin)
        // What Go's runtime does at start on Darwin: ask for at most
        // kern.maxfilesperproc; OPEN_MAX (<sys/syslimits.h>, 10240) when
        // the sysctl cannot be read.
        var value: Int32 = 0
        var size = MemoryLayout<Int32>.size
        if sysctlbyname("kern.maxfilesperproc", &value, &size, nil, 0) == 0, value > 0 {
            return Int(value)
        }
        return 10_240
        #else
        return nil
        #endif
    }
}
