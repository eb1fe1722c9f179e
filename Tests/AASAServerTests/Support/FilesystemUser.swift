#if canImport(Glibc)
import Glibc

// Glibc's module map leaves out <sys/fsuid.h>.
@_silgen_name("setfsuid")
private func setfsuid(_ fsuid: uid_t) -> Int32

/// Runs `body` with the file permissions of `nobody` when the tests run as
/// root (as CI does), so that a mode-0 directory is unreadable there too.
///
/// `setfsuid` changes the filesystem user of the calling thread only, and
/// leaving uid 0 drops `CAP_DAC_OVERRIDE` and `CAP_DAC_READ_SEARCH` from that
/// thread with it; `body` must therefore do its file access synchronously on
/// this thread, as the loader does. The previous identity is restored after.
func withUnprivilegedFileAccess<T>(_ body: () throws -> T) rethrows -> T {
    guard geteuid() == 0 else { return try body() }
    let previous = setfsuid(65_534)
    defer { _ = setfsuid(uid_t(previous)) }
    return try body()
}
#endif
