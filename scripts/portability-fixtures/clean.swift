// Fixture for scripts/check-portability: nothing here may be reported.
// A comment may name st_mtim, setfsuid, /proc/self/status or epoll freely.
/* So may a block comment: sched_getaffinity, import Glibc. */
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
let cpus = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
#else
let resource = RLIMIT_NOFILE
let cpus: String? = nil
#endif

#if canImport(Darwin)
let modified = \stat.st_mtimespec
#else
let modified = \stat.st_mtim
#endif

let url = "https://example.com/a//b"  // the `//` in a string is not a comment: sched_yield here is.
let mtime = status.st_mtim  // portable: swift-system's Stat maps it to st_mtimespec on Darwin
// portable: the next line reads swift-system's accessor, not libc's field.
let ctime = status.st_ctim
let text = """
    a multi-line string mentioning "quotes" and \(value)
    """
