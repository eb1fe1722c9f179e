import CompressNIO
import Dispatch
import NIOConcurrencyHelpers
import NIOCore
import Testing

@testable import AASAServer

/// A reused gzip stream must write exactly what a new one writes: the gzip
/// representation's bytes (and the weak ETag's promise that they stay the
/// same for the same file) do not depend on which file a stream did before.
@Suite("gzip streams reused across a load")
struct GzipPoolTests {
    /// What a stream of its own writes for `bytes`.
    static func oneShot(_ bytes: [UInt8]) throws -> [UInt8] {
        var buffer = ByteBuffer(bytes: bytes)
        return Array(buffer: try buffer.compress(with: .gzip()))
    }

    /// Inputs of every kind a load meets: empty, tiny, JSON, repetitive,
    /// incompressible, and the largest file served; a large one before a
    /// small one checks that nothing of it stays in the stream.
    static func inputs() -> [[UInt8]] {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<131_072).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let json = Array(
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/buy/*"}]}]}}"#.utf8
        )
        return [
            [], [0x7B], json, Array(repeating: 0x61, count: 70_000), random, json,
            Array(random.prefix(3_000)), Array(repeating: json, count: 40).flatMap { $0 }, [],
        ]
    }

    @Test func aReusedStreamWritesWhatANewOneWrites() throws {
        let pool = GzipPool()
        for input in Self.inputs() {
            #expect(pool.compress(input) == (try Self.oneShot(input)))
        }
    }

    @Test func threadsSharingAPoolEachGetTheirOwnStream() throws {
        let inputs = Self.inputs()
        let expected = try inputs.map(Self.oneShot)
        let pool = GzipPool()
        let results = NIOLockedValueBox([Int: [UInt8]]())
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let output = pool.compress(inputs[index % inputs.count])
            results.withLockedValue { $0[index] = output }
        }
        let outputs = results.withLockedValue { $0 }
        for index in 0..<64 {
            #expect(outputs[index] == expected[index % inputs.count])
        }
    }

    @Test func aFileServesTheSameGzipBytesWhateverTheLoadCompressedBefore() throws {
        let body = Array(Self.inputs()[7])
        let fresh = FileResponses(
            contents: body,
            opaqueTag: "abc",
            modified: .init(timeIntervalSince1970: 0),
            cacheControl: "x"
        )
        let pool = GzipPool()
        _ = pool.compress(Self.inputs()[4])
        let reused = FileResponses(
            contents: body,
            opaqueTag: "abc",
            modified: .init(timeIntervalSince1970: 0),
            cacheControl: "x",
            gzip: pool
        )
        #expect(fresh.gzipSize != nil)
        #expect(reused.gzipSize == fresh.gzipSize)
        #expect(reused.gzip.ok[.keepAlive].bytes == fresh.gzip.ok[.keepAlive].bytes)
    }
}
