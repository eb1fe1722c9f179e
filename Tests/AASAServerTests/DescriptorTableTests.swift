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
    static func softLimit() -> Int {
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        return getrlimit(resource, &limit) == 0 ? Int(clamping: limit.rlim_cur) : 0
    }

    @Test("grown past the count asked for, and the descriptor closed again")
    func growsPastTheCount() throws {
        let count = min(2_000, Self.softLimit() - DescriptorTable.margin - 1)
        try #require(count > 0)
        let high = try #require(DescriptorTable.reserve(count))
        #expect(Int(high) >= count)
        #expect(fcntl(high, F_GETFD) == -1)
    }

    @Test("a count beyond the soft limit is clamped below it")
    func clampedToTheLimit() throws {
        let high = try #require(DescriptorTable.reserve(Int.max / 2))
        #expect(Int(high) < Self.softLimit())
        #expect(fcntl(high, F_GETFD) == -1)
    }

    @Test("nothing asked, nothing grown")
    func nothingForNoEntries() {
        #expect(DescriptorTable.reserve(0) == nil)
    }
}
