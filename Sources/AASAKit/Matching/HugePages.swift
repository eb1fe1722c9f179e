#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Advice that a large buffer about to be written be backed by 2 MiB pages.
package enum HugePages {
    /// The size of a transparent huge page with 4 KiB base pages (x86-64,
    /// most arm64 kernels; with 16 or 64 KiB base pages they are larger,
    /// and the advice covers fewer of them or none, at no cost).
    package static let size = 2 << 20

    /// The whole 2 MiB pages inside `buffer`: `nil` when it holds none.
    package static func alignedRange(of buffer: UnsafeMutableRawBufferPointer) -> Range<UInt>? {
        guard let base = buffer.baseAddress else { return nil }
        let mask = UInt(size - 1)
        let start = (UInt(bitPattern: base) + mask) & ~mask
        let end = (UInt(bitPattern: base) + UInt(buffer.count)) & ~mask
        return start < end ? start..<end : nil
    }

    /// Asks the kernel to back the whole 2 MiB pages of `buffer`, not yet
    /// touched, with huge pages (transparent huge pages are "madvise" on
    /// a default kernel). The 12 MB of a 100,000-URL list's parsed items
    /// in 4 KiB pages took ~2,900 page faults, each a fresh page zeroed
    /// and charged. Only advice: on a kernel without them, or on Darwin,
    /// the buffer is what it was.
    package static func advise(_ buffer: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
        guard let range = alignedRange(of: buffer), let start = UnsafeMutableRawPointer(bitPattern: range.lowerBound)
        else { return }
        _ = madvise(start, Int(range.upperBound - range.lowerBound), MADV_HUGEPAGE)
        #endif
    }
}
