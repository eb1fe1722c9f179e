#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks the kernel to back a large buffer with huge pages, where it offers
/// them only when asked (Linux's transparent huge pages in `madvise` mode):
/// one fault per 2 MB instead of one per 4 KB. Nothing elsewhere.
enum HugePages {
    /// The part of `buffer` that holds whole 2 MB pages is advised; a
    /// buffer shorter than two of them is left as it is.
    static func advise(_ buffer: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
        let huge = 2 << 20
        guard let base = buffer.baseAddress, buffer.count >= 2 * huge else { return }
        let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
        let end = (Int(bitPattern: base) + buffer.count) & ~(huge - 1)
        guard end > start, let address = UnsafeMutableRawPointer(bitPattern: start) else { return }
        // Advice only: a kernel without huge pages refuses, and the
        // buffer works as before.
        _ = madvise(address, end - start, MADV_HUGEPAGE)
        #endif
    }
}
