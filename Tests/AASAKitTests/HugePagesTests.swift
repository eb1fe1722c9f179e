import Testing

@testable import AASAKit

/// ``HugePages/advise(_:)`` is advice only: a buffer of any length and
/// alignment keeps its bytes and stays writable.
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
}
