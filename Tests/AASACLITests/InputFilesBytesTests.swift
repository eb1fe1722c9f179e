import Foundation
import Testing

@testable import aasa

/// Input files are read straight into their array: every byte, whether the
/// file is empty, larger than a read, or larger than its size said.
@Suite("aasa: reading input files")
struct InputFilesBytesTests {
    @Test(arguments: [0, 1, 65_535, 65_536, 300_001, 5_000_001])
    func aFileIsReadWhole(size: Int) throws {
        let scratch = try ScratchDirectory([:])
        let path = scratch.path + "/file"
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        try FileManager.default.createDirectory(atPath: scratch.path, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try InputFiles.bytes(path, what: "links file") == bytes)
    }

    /// A pipe's size says nothing and a file can grow after its size was
    /// read: whatever lies beyond the size given is read to the end.
    @Test(arguments: [0, 1, 65_536])
    func whatLiesBeyondTheSizeGivenIsReadToo(sizeHint: Int) throws {
        let scratch = try ScratchDirectory([:])
        try FileManager.default.createDirectory(atPath: scratch.path, withIntermediateDirectories: true)
        let path = scratch.path + "/file"
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try InputFiles.bytes(path, what: "links file", sizeHint: sizeHint) == bytes)
    }

    @Test func aMissingFileOrADirectoryIsAnInputError() throws {
        let scratch = try ScratchDirectory([:])
        try FileManager.default.createDirectory(atPath: scratch.path, withIntermediateDirectories: true)
        for path in [scratch.path + "/missing.json", scratch.path] {
            #expect(throws: InputError.self) { try InputFiles.bytes(path, what: "links file") }
        }
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
