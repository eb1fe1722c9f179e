import Foundation
import Testing

@testable import aasa

/// A report streamed into a pipe arrives whole, and on Linux asks for a
/// wide pipe, so that a long report does not stop the writer every 64 KiB.
@Suite struct ReportWriterPipeTests {
    @Test func aStreamedReportThroughAPipeArrivesWhole() throws {
        let pipe = Pipe()
        let descriptor = pipe.fileHandleForWriting.fileDescriptor
        let capacity = PipeCapacity(descriptor)
        let writer = ReportWriter(descriptor: descriptor)
        writer.line("a line")
        writer.write(pieces: [Array("a piece".utf8)])
        // Short output (lines, pieces) leaves the pipe as it was.
        #expect(PipeCapacity(descriptor) == capacity)
        writer.write(piece: Array("a part".utf8))
        #expect(PipeCapacity(descriptor) == capacity.widened)
        #expect(writer.finish() == nil)
        try pipe.fileHandleForWriting.close()
        let read = pipe.fileHandleForReading.readDataToEndOfFile()
        #expect(String(decoding: read, as: UTF8.self) == "a line\na piece\na part")
    }

    /// A descriptor that is not a pipe is written as before.
    @Test func aFileIsWrittenAsBefore() throws {
        let scratch = try ScratchDirectory(["out": ""])
        let handle = try #require(FileHandle(forWritingAtPath: scratch.at("out")))
        let writer = ReportWriter(descriptor: handle.fileDescriptor)
        writer.write(piece: Array("part".utf8))
        #expect(writer.finish() == nil)
        try handle.close()
        #expect(try String(contentsOfFile: scratch.at("out"), encoding: .utf8) == "part")
    }
}

/// What a pipe holds, where the platform says.
private struct PipeCapacity: Equatable {
    var bytes: Int32?

    init(_ descriptor: Int32) {
        #if os(Linux)
        bytes = fcntl(descriptor, Self.getPipeSize)
        #else
        // Darwin's pipes grow by themselves and report no capacity.
        bytes = nil
        #endif
    }

    private init(bytes: Int32?) { self.bytes = bytes }

    #if os(Linux)
    /// `F_GETPIPE_SZ` of `<fcntl.h>` (a Linux ABI value; see
    /// ``ReportWriter/setPipeSize``).
    private static let getPipeSize: Int32 = 1032
    #endif

    /// What a streamed report leaves: ``ReportWriter/pipeCapacity`` on
    /// Linux where a pipe may be asked for it (the system's limits and the
    /// user's allowance decide; a fresh pipe is asked to tell), else the
    /// pipe as it was.
    var widened: PipeCapacity {
        #if os(Linux)
        let trial = Pipe()
        let allowed =
            fcntl(trial.fileHandleForWriting.fileDescriptor, ReportWriter.setPipeSize, ReportWriter.pipeCapacity) >= 0
        return allowed ? PipeCapacity(bytes: ReportWriter.pipeCapacity) : self
        #else
        // Nothing is asked on Darwin.
        return self
        #endif
    }
}
