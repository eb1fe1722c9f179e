#if os(Linux)
import Foundation
import Testing

@testable import aasa

/// A report streamed into a pipe asks for a wide one, so that a long
/// report does not stop the writer every 64 KiB (Linux only: Darwin's
/// pipes grow by themselves and take no such request).
@Suite struct ReportWriterPipeTests {
    @Test func aStreamedReportWidensItsPipeAndArrivesWhole() throws {
        let pipe = Pipe()
        let descriptor = pipe.fileHandleForWriting.fileDescriptor
        let before = fcntl(descriptor, ReportWriter.getPipeSize)
        let writer = ReportWriter(descriptor: descriptor)
        writer.line("a line")
        writer.write(pieces: [Array("a piece".utf8)])
        // Short output (lines, pieces) leaves the pipe as it was.
        #expect(fcntl(descriptor, ReportWriter.getPipeSize) == before)
        writer.write(piece: Array("a part".utf8))
        let after = fcntl(descriptor, ReportWriter.getPipeSize)
        // Root may ask any size; others up to the system's limit, above
        // which the pipe stays as it was.
        let limit =
            (try? String(contentsOfFile: "/proc/sys/fs/pipe-max-size", encoding: .utf8))
            .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
        let allowed = getuid() == 0 || limit >= ReportWriter.pipeCapacity
        #expect(after == (allowed ? ReportWriter.pipeCapacity : before))
        #expect(writer.finish() == nil)
        try pipe.fileHandleForWriting.close()
        let read = pipe.fileHandleForReading.readDataToEndOfFile()
        #expect(String(decoding: read, as: UTF8.self) == "a line\na piece\na part")
    }

    /// A descriptor that is not a pipe is written as before.
    @Test func aFileIsNotAPipe() throws {
        let scratch = try ScratchDirectory(["out": ""])
        let handle = try #require(FileHandle(forWritingAtPath: scratch.at("out")))
        let writer = ReportWriter(descriptor: handle.fileDescriptor)
        writer.write(piece: Array("part".utf8))
        #expect(writer.finish() == nil)
        try handle.close()
        #expect(try String(contentsOfFile: scratch.at("out"), encoding: .utf8) == "part")
    }
}
#endif
