import Foundation
import MetricsTestKit
import SystemPackage
import Testing

@testable import AASAServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The log writer against a real pipe: a reader that stops reading, or
/// closes its end, never blocks the code that logs.
@Suite("Log writer", .serialized)
struct LogWriterTests {
    /// Both ends of a pipe; the read end is read with poll(2) deadlines.
    final class TestPipe {
        let readEnd: Int32
        let writeEnd: Int32
        private var readClosed = false

        init() throws {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw Errno(rawValue: errno) }
            (readEnd, writeEnd) = (ends[0], ends[1])
        }

        deinit {
            if !readClosed { close(readEnd) }
            close(writeEnd)
        }

        func closeReadEnd() {
            close(readEnd)
            readClosed = true
        }

        /// Reads until `done` holds for what was read, or `seconds` pass
        /// without new bytes.
        func read(idleDeadline seconds: Int32 = 10, until done: (String) -> Bool) -> String {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while !done(String(decoding: bytes, as: UTF8.self)) {
                var request = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                guard poll(&request, 1, seconds * 1000) > 0 else { break }
                let count = buffer.withUnsafeMutableBytes { Foundation.read(readEnd, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                bytes += buffer.prefix(count)
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// What the pipe holds now, without waiting for more.
        func readAvailable() -> String {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                var request = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                guard poll(&request, 1, 0) > 0 else { break }
                let count = buffer.withUnsafeMutableBytes { Foundation.read(readEnd, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                bytes += buffer.prefix(count)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Runs `body` with a writer into `pipe`, then stops the writer and
    /// expects its thread to end: no test leaves a thread behind, nor one
    /// holding a descriptor number the pipe's end gives back.
    static func withWriter<Result>(
        _ pipe: TestPipe,
        capacity: Int,
        metrics: TestMetrics,
        _ body: (LogWriter) throws -> Result
    ) rethrows -> Result {
        let writer = LogWriter(
            output: LogOutput(descriptor: FileDescriptor(rawValue: pipe.writeEnd)),
            capacity: capacity,
            metrics: metrics,
            droppedNotice: { "dropped \($0)\n" }
        )
        defer { #expect(writer.stop(deadline: Date(timeIntervalSinceNow: 10)), "the writer thread did not end") }
        return try body(writer)
    }

    /// 10,000 lines of 100 bytes, 1 MB, into a 64 KiB pipe nobody reads
    /// and a 4 KiB queue: every `submit` returns (the test would hang
    /// otherwise); once the pipe is read, the lines that got through come
    /// in order and the notices account for every other one, as does the
    /// metric.
    @Test(.timeLimit(.minutes(1))) func aStuckReaderCostsDroppedLinesNotABlockedLogger() throws {
        let pipe = try TestPipe()
        let metrics = TestMetrics()
        try Self.withWriter(pipe, capacity: 4096, metrics: metrics) { writer in
            try Self.checkAStuckReader(pipe, writer: writer, metrics: metrics)
        }
    }

    private static func checkAStuckReader(_ pipe: TestPipe, writer: LogWriter, metrics: TestMetrics) throws {
        let total = 10_000
        for number in 0..<total {
            writer.submit("line \(String(number).padding(toLength: 93 - 5, withPad: " ", startingAt: 0))\n")
        }

        var written: [Int] = []
        var dropped = 0
        let text = pipe.read { text in
            written = []
            dropped = 0
            for line in text.split(separator: "\n") {
                if line.hasPrefix("dropped ") {
                    dropped += Int(line.dropFirst(8)) ?? 0
                } else if let number = Int(line.dropFirst(5).prefix { $0 != " " }) {
                    written.append(number)
                }
            }
            return written.count + dropped >= total
        }
        #expect(written.count + dropped == total, "read \(text.utf8.count) bytes")
        #expect(dropped > 0)
        #expect(written == written.sorted())
        #expect(Set(written).count == written.count)
        #expect(written.first == 0)
        #expect(writer.flush(deadline: Date(timeIntervalSinceNow: 10)))
        #expect(try metrics.expectCounter("aasa_log_lines_dropped_total").totalValue == Int64(dropped))
    }

    /// A reader that closed its end: write(2) fails with EPIPE (SIGPIPE is
    /// ignored, as `aasa serve` does); the writer counts the lines as
    /// dropped and keeps going.
    @Test(.timeLimit(.minutes(1))) func aClosedReaderCountsTheLinesAsDropped() throws {
        signal(SIGPIPE, SIG_IGN)
        let pipe = try TestPipe()
        pipe.closeReadEnd()
        let metrics = TestMetrics()
        try Self.withWriter(pipe, capacity: 1 << 20, metrics: metrics) { writer throws in
            for number in 0..<100 { writer.submit("line \(number)\n") }
            #expect(writer.flush(deadline: Date(timeIntervalSinceNow: 10)))
            #expect(try metrics.expectCounter("aasa_log_lines_dropped_total").totalValue == 100)
        }
    }

    /// At exit the flush waits for the writer, but not past its deadline
    /// when the reader never drains the pipe.
    @Test(.timeLimit(.minutes(1))) func flushGivesUpAtItsDeadline() throws {
        let pipe = try TestPipe()
        Self.withWriter(pipe, capacity: 1 << 20, metrics: TestMetrics()) { writer in
            let line = String(repeating: "x", count: 1023) + "\n"
            for _ in 0..<200 { writer.submit(line) }
            #expect(!writer.flush(deadline: Date(timeIntervalSinceNow: 0.2)))
            // Stopping waits for the thread no longer than its deadline either.
            #expect(!writer.stop(deadline: Date(timeIntervalSinceNow: 0.2)))
            _ = pipe.read { $0.utf8.count >= 200 * 1024 }
            #expect(writer.flush(deadline: Date(timeIntervalSinceNow: 10)))
        }
    }

    /// Stopping writes every line submitted before, ends the thread (the
    /// call returns only once the thread's last act is done), and drops
    /// and counts what comes after.
    @Test(.timeLimit(.minutes(1))) func stopWritesWhatWasQueuedAndEndsTheThread() throws {
        let pipe = try TestPipe()
        let metrics = TestMetrics()
        let writer = LogWriter(
            output: LogOutput(descriptor: FileDescriptor(rawValue: pipe.writeEnd)),
            metrics: metrics,
            droppedNotice: { "dropped \($0)\n" }
        )
        for number in 0..<100 { writer.submit("line \(number)\n") }
        #expect(writer.stop(deadline: Date(timeIntervalSinceNow: 10)))
        // Read without waiting: every line is in the pipe when `stop` returns.
        #expect(pipe.readAvailable() == (0..<100).map { "line \($0)\n" }.joined())
        writer.submit("after the stop\n")
        // The thread has ended: nothing can reach the pipe after the stop.
        #expect(pipe.readAvailable() == "")
        #expect(try metrics.expectCounter("aasa_log_lines_dropped_total").totalValue == 1)
        #expect(writer.stop(deadline: Date(timeIntervalSinceNow: 10)))
    }
}
