import NIOCore
import NIOPosix
import Testing

@testable import AASAServer

/// An event loop's responses of the current second: built once, shared,
/// the same bytes as a copy, dropped when the second changes, and bounded.
@Suite("Response cache")
struct ResponseCacheTests {
    static let second = 1_000_000_000
    static let body = Array(#"{"applinks":{"details":[]}}"#.utf8)
    static let set = EncodedResponseSet(status: .ok, headers: [("Content-Type", "application/json")], body: body)

    static func address(_ buffer: ByteBuffer) -> UInt {
        buffer.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
    }

    static func expected(_ response: EncodedResponse, isHead: Bool, second: Int) -> String {
        String(describing: response.status.statusLine) + "Date: \(HTTPDate.format(epochSeconds: second))\r\n"
            + String(describing: response.connection.headerLine) + String(buffer: response.payload(isHead: isHead))
    }

    /// Two requests in one second get the same buffer: the status line,
    /// the `Date` of that second and the response's bytes.
    @Test func oneSecondSharesOneBuffer() {
        let cache = ResponseCache()
        let response = Self.set[.keepAlive]
        let first = cache.whole(response, isHead: false, now: Self.second)
        let second = cache.whole(response, isHead: false, now: Self.second)
        #expect(String(buffer: first) == Self.expected(response, isHead: false, second: Self.second))
        #expect(String(buffer: first).hasPrefix("HTTP/1.1 200 OK\r\nDate: Sun, 09 Sep 2001 01:46:40 GMT\r\n"))
        #expect(Self.address(first) == Self.address(second))
        #expect(cache.count == 1)
    }

    /// Each connection variant and HEAD is its own entry with its own
    /// bytes; none is served for another.
    @Test func variantsAreSeparateEntries() {
        let cache = ResponseCache()
        let requests: [(EncodedResponse, Bool)] = [
            (Self.set[.keepAlive], false), (Self.set[.close], false), (Self.set[.keepAliveHTTP10], false),
            (Self.set[.keepAlive], true), (Self.set[.close], true),
        ]
        for _ in 0..<2 {
            for (response, isHead) in requests {
                let text = String(buffer: cache.whole(response, isHead: isHead, now: Self.second))
                #expect(text == Self.expected(response, isHead: isHead, second: Self.second))
            }
        }
        #expect(cache.count == requests.count)
    }

    /// Two responses with the same bytes in different storage are two
    /// entries: an entry is found by where its bytes live, not by content,
    /// and keeps that storage alive so no other response can take its place.
    @Test func responsesAreTellApartByStorage() {
        let cache = ResponseCache()
        let other = EncodedResponseSet(status: .ok, headers: [("Content-Type", "application/json")], body: Self.body)
        let one = cache.whole(Self.set[.keepAlive], isHead: false, now: Self.second)
        let two = cache.whole(other[.keepAlive], isHead: false, now: Self.second)
        #expect(String(buffer: one) == String(buffer: two))
        #expect(Self.address(one) != Self.address(two))
        #expect(cache.count == 2)
    }

    /// A response dropped (a reload replaced its file) and another of the
    /// same length built after it: the allocator would hand the new one
    /// the freed storage, and an entry found by address would then serve
    /// the old bytes for it. The cache keeps each entry's storage alive,
    /// so every response gets its own bytes back.
    @Test func aFreedResponseCannotLendItsAddress() {
        let cache = ResponseCache()
        // One letter a round: every body has the same length, so the same key but for the address.
        for (round, letter) in "abcdefghijklmnopqrstuvwxyzABCDEF".enumerated() {
            let body = Array(#"{"applinks":{"details":[]},"round":"\#(letter)"}"#.utf8)
            let text = String(decoding: body, as: UTF8.self)
            let written: String = {
                let set = EncodedResponseSet(status: .ok, headers: [("Content-Type", "application/json")], body: body)
                return String(buffer: cache.whole(set[.keepAlive], isHead: false, now: Self.second))
            }()
            #expect(written.hasSuffix(text), "round \(round): another response's bytes")
        }
    }

    /// A new second drops every entry and rebuilds with its `Date`.
    @Test func aNewSecondRebuilds() {
        let cache = ResponseCache()
        let response = Self.set[.keepAlive]
        let old = cache.whole(response, isHead: false, now: Self.second)
        _ = cache.whole(Self.set[.close], isHead: false, now: Self.second)
        let new = cache.whole(response, isHead: false, now: Self.second + 1)
        #expect(String(buffer: new) == Self.expected(response, isHead: false, second: Self.second + 1))
        #expect(String(buffer: old) == Self.expected(response, isHead: false, second: Self.second))
        #expect(Self.address(old) != Self.address(new))
        #expect(cache.count == 1)
    }

    /// Past its budget the cache adds nothing and answers with a copy,
    /// byte for byte the same.
    @Test func theBudgetBoundsTheEntries() {
        let none = ResponseCache(budget: 0)
        let response = Self.set[.keepAlive]
        let first = none.whole(response, isHead: false, now: Self.second)
        let second = none.whole(response, isHead: false, now: Self.second)
        #expect(String(buffer: second) == Self.expected(response, isHead: false, second: Self.second))
        #expect(Self.address(first) != Self.address(second))
        #expect(none.count == 0 && none.cachedBytes == 0)

        let one = ResponseCache(budget: first.storageCapacity + ResponseCache.entryOverhead)
        _ = one.whole(response, isHead: false, now: Self.second)
        let uncached = one.whole(Self.set[.close], isHead: false, now: Self.second)
        #expect(String(buffer: uncached) == Self.expected(Self.set[.close], isHead: false, second: Self.second))
        #expect(one.count == 1 && one.cachedBytes == one.budget)
    }

    /// A response over the coalescing limit gets only its prefix here.
    @Test func aLargeResponseGetsAPrefix() {
        let cache = ResponseCache()
        let prefix = cache.prefix(of: Self.set[.close], now: Self.second)
        #expect(
            String(buffer: prefix)
                == "HTTP/1.1 200 OK\r\nDate: Sun, 09 Sep 2001 01:46:40 GMT\r\nConnection: close\r\n"
        )
        #expect(cache.count == 0)
    }

    /// Connections on one event loop share its cache; another loop has its own.
    @Test func oneCachePerEventLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let caches = ResponseCaches()
        let loops = Array(group.makeIterator())
        func identity(on loop: any EventLoop) async throws -> ObjectIdentifier {
            try await loop.submit { ObjectIdentifier(caches.cache(for: loop)) }.get()
        }
        let first = try await identity(on: loops[0])
        #expect(try await identity(on: loops[0]) == first)
        let other = try await identity(on: loops[1])
        try await group.shutdownGracefully()
        #expect(other != first)
    }
}
