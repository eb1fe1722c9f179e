import Testing

@testable import AASAServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Growing the descriptor table ahead of a load reaches past the
/// descriptors the load will hold, stays under the soft limit, and leaves
/// nothing open.
@Suite("descriptor table grown ahead of a load")
struct DescriptorTableTests {
    @Test("grown past the count asked for, and the descriptor closed again")
    func growsPastTheCount() throws {
        let soft = try #require(DescriptorTable.softLimit())
        // macOS starts processes at a soft limit of 256, the margin itself:
        // then one descriptor is asked for, and still reached.
        let count = min(2_000, max(1, soft - DescriptorTable.margin - 1))
        let high = try #require(DescriptorTable.reserve(count))
        #expect(Int(high) >= count)
        #expect(fcntl(high, F_GETFD) == -1)
    }

    @Test("a count beyond the soft limit is clamped below it")
    func clampedToTheLimit() throws {
        let high = try #require(DescriptorTable.reserve(Int.max / 2))
        #expect(Int(high) < (try #require(DescriptorTable.softLimit())))
        #expect(fcntl(high, F_GETFD) == -1)
    }

    @Test("nothing asked, nothing grown")
    func nothingForNoEntries() {
        #expect(DescriptorTable.reserve(0) == nil)
    }
}
