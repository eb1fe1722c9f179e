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
}
