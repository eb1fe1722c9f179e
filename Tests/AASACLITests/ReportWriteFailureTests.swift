import Foundation
import Testing

@testable import aasa

/// A report that cannot be written is never a pass: the run says so on
/// stderr and exits 2, whatever the command found.
@Suite("Report write failures")
struct ReportWriteFailureTests {
    /// Descriptors that refuse writes on every platform (a file opened
    /// read-only: EBADF), and on Linux a full disk (`/dev/full`: ENOSPC).
    /// The read-only case always runs, so the suite never passes vacuously
    /// where `/dev/full` does not exist.
    static let sinks: [String] = {
        var sinks = ["read-only"]
        if FileManager.default.fileExists(atPath: "/dev/full") { sinks.append("/dev/full") }
        return sinks
    }()

    /// Opens `sink` as a descriptor a report would be written to.
    static func open(_ sink: String, in scratch: ScratchDirectory) throws -> FileHandle {
        if sink == "read-only" {
            return try #require(FileHandle(forReadingAtPath: scratch.at("read-only")))
        }
        return try #require(FileHandle(forWritingAtPath: sink))
    }

    @Test(arguments: sinks)
    func theWriterRemembersTheFirstFailure(sink: String) throws {
        let scratch = try ScratchDirectory(["read-only": ""])
        let handle = try Self.open(sink, in: scratch)
        defer { try? handle.close() }
        let writer = ReportWriter(descriptor: handle.fileDescriptor)
        writer.line("a line")
        writer.write(pieces: [Array("a piece".utf8)])
        writer.write(piece: Array("a part".utf8))
        let failure = try #require(writer.finish())
        #expect(failure.code == (sink == "read-only" ? EBADF : ENOSPC))
        #expect(failure.description.hasPrefix("aasa: cannot write the report to standard output: "))
        #expect(failure.description.hasSuffix(String(cString: strerror(failure.code))))
    }

    @Test func aWritableDescriptorHasNoFailure() throws {
        let scratch = try ScratchDirectory(["out": ""])
        let handle = try #require(FileHandle(forWritingAtPath: scratch.at("out")))
        let writer = ReportWriter(descriptor: handle.fileDescriptor)
        writer.line("first")
        writer.write(pieces: [Array("sec".utf8), Array("ond".utf8)])
        writer.write(piece: Array("thi".utf8))
        writer.write(piece: Array("rd".utf8))
        writer.line("")
        #expect(writer.finish() == nil)
        try handle.close()
        #expect(try String(contentsOfFile: scratch.at("out"), encoding: .utf8) == "first\nsecond\nthird\n")
    }

    /// The built tool, stdout on a descriptor that fails: every report path
    /// (lines, pieces, a findings exit) ends with the message and status 2.
    @Test(.timeLimit(.minutes(2)), arguments: sinks)
    func theToolExitsTwoWhenStdoutFails(sink: String) async throws {
        let file =
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/buy/*"}]}]}}"#
        let scratch = try ScratchDirectory([
            "apple-app-site-association": file,
            "urls.txt": "https://example.com/buy/1\nhttps://example.com/other\n",
            "read-only": "",
            "bad.json": "{\"applinks\": 1}",
            "links.json": #"{"deep_linkable_urls": ["https://example.com/buy/1"]}"#,
        ])
        let aasa = scratch.at("apple-app-site-association")
        let runs: [(arguments: [String], input: String?)] = [
            (["match", "https://example.com/buy/1", "--file", aasa, "--format", "json"], nil),
            (["match", "https://example.com/buy/1", "--file", aasa], nil),
            (["match", "-", "--file", aasa, "--format", "json"], scratch.at("urls.txt")),
            (["validate", aasa], nil),
            (["validate", scratch.at("bad.json")], nil),
            // Streamed window by window; a passing list, so only the write fails.
            (["test-links", "--file", aasa, "--links", scratch.at("links.json"), "--format", "json"], nil),
            (["test-links", "--file", aasa, "--links", scratch.at("links.json")], nil),
        ]
        for (arguments, input) in runs {
            let output = try Self.open(sink, in: scratch)
            defer { try? output.close() }
            let process = Process()
            process.executableURL = try BuiltExecutable.locate("aasa")
            process.arguments = arguments
            process.standardOutput = output
            process.standardInput = input.flatMap { FileHandle(forReadingAtPath: $0) } ?? FileHandle.nullDevice
            process.standardError = Pipe()
            let message = String(decoding: try await ProcessExit.run(process).error, as: UTF8.self)
            #expect(process.terminationReason == .exit, "\(arguments)")
            #expect(process.terminationStatus == 2, "\(arguments): \(message)")
            #expect(message.contains("aasa: cannot write the report to standard output: "), "\(arguments): \(message)")
        }
    }
}
