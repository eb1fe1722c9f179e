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
}
