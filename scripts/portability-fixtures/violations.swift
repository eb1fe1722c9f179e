// Fixture for scripts/check-portability: every line ending in VIOLATION
// (as a comment) must be reported, and no other line. Never compiled.
import Glibc  // VIOLATION
import Foundation

#if canImport(Glibc)
import Glibc  // VIOLATION
#endif

func stamps(_ status: stat) -> Int {
    Int(status.st_mtim.tv_sec) + Int(status.st_ctim.tv_nsec)  // VIOLATION
}

func affinity() -> String? {
    try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)  // VIOLATION
}

func user() {
    _ = setfsuid(65_534)  // VIOLATION
    sched_yield()  // VIOLATION
    let queue = epoll_create1(0)  // VIOLATION
    _ = queue
}

#if os(Linux)
let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)  // VIOLATION
#endif

#if !os(Linux)
let proc = "/proc/1/status"  // VIOLATION
#else
let fallback = 0
#endif

let interpolated = "\(String("/proc/self/fd"))"  // VIOLATION
let raw = #"a "quoted" /proc/ path"#  // VIOLATION
