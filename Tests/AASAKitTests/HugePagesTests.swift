import Foundation
import Testing

@testable import AASAKit

/// ``HugePages/advise(_:)`` is advice only: a buffer of any length and
/// alignment keeps its bytes and stays writable; on Linux the kernel
/// records the advice on the whole huge pages inside it.
@Suite struct HugePagesTests {
    @Test(arguments: [0, 100, 4 << 20, (6 << 20) + 123])
    func anAdvisedBufferKeepsItsBytes(count: Int) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count + 1, alignment: 1)
        defer { buffer.deallocate() }
        // Off by one byte: the advice must round to whole pages inside.
        let body = UnsafeMutableRawBufferPointer(rebasing: buffer[1...])
        for index in body.indices { body[index] = UInt8(truncatingIfNeeded: index &* 31) }
        HugePages.advise(body)
        #expect(body.indices.allSatisfy { body[$0] == UInt8(truncatingIfNeeded: $0 &* 31) })
        for index in body.indices { body[index] = 0 }
        #expect(body.allSatisfy { $0 == 0 })
    }

    /// The huge pages advised are whole, aligned, and inside the buffer;
    /// a buffer holding none is left alone.
    @Test(arguments: [0, 1, 4_095, 2 << 20, (2 << 20) + 1, 5_000_001])
    func theHugePagesAdvisedLieWhollyInsideTheBuffer(offset: Int) {
        let size = HugePages.size
        let storage = UnsafeMutableRawPointer.allocate(byteCount: 3 * size + offset, alignment: size)
        defer { storage.deallocate() }
        for (start, count) in [(offset, 3 * size), (offset, size), (1, size - 1), (0, size), (offset, 2 * size + 1)] {
            guard start + count <= 3 * size + offset else { continue }
            let buffer = UnsafeMutableRawBufferPointer(start: storage + start, count: count)
            let base = UInt(bitPattern: storage + start)
            let range = HugePages.alignedRange(of: buffer)
            // The whole pages a buffer holds, counted the slow way.
            let whole = (0...(3 * size + offset) / size).filter { page in
                let pageStart = UInt(bitPattern: storage) + UInt(page * size)
                return pageStart >= base && pageStart + UInt(size) <= base + UInt(count)
            }
            #expect((range.map { Int($0.upperBound - $0.lowerBound) / size } ?? 0) == whole.count)
            if let range {
                #expect(range.lowerBound % UInt(size) == 0 && range.upperBound % UInt(size) == 0)
                #expect(range.lowerBound >= base && range.upperBound <= base + UInt(count))
            }
        }
    }

    #if os(Linux)
    /// The kernel marks the mapping of the advised pages `hg` (`VM_HUGEPAGE`,
    /// `/proc/self/smaps`): advice that never reached `madvise` fails here.
    /// Skipped on a kernel built without transparent huge pages.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled")))
    func theKernelRecordsTheAdviceOnTheWholePagesInside() throws {
        let size = HugePages.size
        // A mapping of its own: memory from the allocator may lie in a
        // region some other test's run has advised already.
        let length = 5 * size
        let mapped = try #require(
            mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            "mmap"
        )
        try #require(mapped != MAP_FAILED)
        defer { munmap(mapped, length) }
        let buffer = UnsafeMutableRawBufferPointer(start: mapped + 1, count: 4 * size)
        let range = try #require(HugePages.alignedRange(of: buffer))
        #expect(Self.flags(at: range.lowerBound)?.contains("hg") == false, "not advised yet")
        HugePages.advise(buffer)
        #expect(Self.flags(at: range.lowerBound)?.contains("hg") == true)
        #expect(Self.flags(at: range.upperBound - 1)?.contains("hg") == true)
        // The partial pages before and after the whole ones are left as they were.
        #expect(Self.flags(at: UInt(bitPattern: mapped + 1))?.contains("hg") == false)
        #expect(Self.flags(at: range.upperBound)?.contains("hg") == false)
    }

    /// The `VmFlags` of the mapping holding `address`, from `/proc/self/smaps`.
    static func flags(at address: UInt) -> [Substring]? {
        // Read to its end: a `/proc` file says its size is 0.
        guard let data = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile() else { return nil }
        let smaps = String(decoding: data, as: UTF8.self)
        var inside = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let span = fields.first, span.contains("-"), !span.hasSuffix(":") {
                let bounds = span.split(separator: "-").compactMap { UInt($0, radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
            } else if inside, fields.first == "VmFlags:" {
                return Array(fields.dropFirst())
            }
        }
        return nil
    }
    #else
    // Darwin: `advise` gives no advice (its allocator maps large blocks its
    // own way), so there is nothing for the kernel to record; the bytes test
    // above is what holds there.
    #endif
}
