import Foundation

/// The CPUs this process may run on, which NIO's default loop count (online
/// CPUs or the cgroup quota) does not see: under `taskset` or a CPU-pinned
/// container two event loops would share one core.
enum CPUAffinity {
    /// On Linux, read from `/proc/self/status` (`Cpus_allowed_list: 0-3,6`),
    /// since `sched_getaffinity` is not exposed to Swift by Glibc. Darwin has
    /// no CPU affinity a process can be pinned by: every active core counts.
    static func count() -> Int? {
        #if os(Linux)
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") })
        else { return nil }
        return count(list: line.dropFirst("Cpus_allowed_list:".count))
        #else
        let active = ProcessInfo.processInfo.activeProcessorCount
        return active > 0 ? active : nil
        #endif
    }

    /// Counts the CPUs in a kernel CPU list (`0-3,6` → 5).
    static func count(list: Substring) -> Int? {
        var total = 0
        for range in list.split(separator: ",") {
            let bounds = range.split(separator: "-", omittingEmptySubsequences: false)
                .map { Int($0.trimmingCharacters(in: .whitespaces)) }
            switch bounds.count {
            case 1:
                guard bounds[0] != nil else { return nil }
                total += 1
            case 2:
                guard let low = bounds[0], let high = bounds[1], high >= low else { return nil }
                total += high - low + 1
            default:
                return nil
            }
        }
        return total > 0 ? total : nil
    }
}
