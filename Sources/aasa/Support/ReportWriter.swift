import Foundation
import Synchronization

/// Writes a command's report to a file descriptor (standard output in the
/// tool) and remembers the first write that failed, so that a report cut
/// short (the reader quit, the disk is full, the descriptor is not open for
/// writing) ends the run with an error instead of exit status 0.
///
/// Lines are buffered like `stdio` buffers them: flushed at once to a
/// terminal, in blocks otherwise. After a failure nothing more is written:
/// the rest of the report would only be a second, shorter truncation.
final class ReportWriter: Sendable {
    /// The process's standard output.
    static let standardOutput = ReportWriter(descriptor: STDOUT_FILENO)

    /// Why the report could not be written.
    struct Failure: Error, Equatable, CustomStringConvertible {
        /// The `errno` of the failed write.
        var code: Int32

        var description: String {
            "aasa: cannot write the report to standard output: \(String(cString: strerror(code)))"
        }
    }

    private struct State {
        var buffer: [UInt8] = []
        var failure: Failure?
        /// Whether a streamed part was written (and a pipe widened for it).
        var streaming = false
    }

    private static let blockSize = 1 << 16
    private let descriptor: Int32
    private let lineBuffered: Bool
    private let state = Mutex(State())

    init(descriptor: Int32) {
        self.descriptor = descriptor
        self.lineBuffered = isatty(descriptor) != 0
    }

    /// `text` and a newline.
    func line(_ text: String) {
        state.withLock { state in
            state.buffer.append(contentsOf: text.utf8)
            state.buffer.append(UInt8(ascii: "\n"))
            if lineBuffered || state.buffer.count >= Self.blockSize { drain(&state) }
        }
    }

    /// `pieces` one after the other, then a newline, without joining them.
    func write(pieces: [[UInt8]]) {
        state.withLock { state in
            drain(&state)
            for piece in pieces { writeAll(piece, state: &state) }
            writeAll([UInt8(ascii: "\n")], state: &state)
        }
    }

    /// `piece` as it is, no newline: one part of a report streamed window
    /// by window, so the whole report never has to be held.
    func write(piece: [UInt8]) {
        state.withLock { state in
            if !state.streaming {
                state.streaming = true
                Self.widenPipe(descriptor)
            }
            drain(&state)
            writeAll(piece, state: &state)
        }
    }

    /// The capacity asked of a pipe a report streams into.
    static let pipeCapacity: Int32 = 1 << 20

    /// Asks that the pipe `descriptor` writes to (if it is one) hold
    /// ``pipeCapacity`` bytes, not Linux's default 64 KiB: a 15 MB report
    /// piped to a reader otherwise stops the writer ~230 times, each a
    /// sleep until the reader drains, and the two swap cores each time
    /// (`test-links` over 100,000 URLs into a reader of 32 KiB reads:
    /// median 57.6 -> 49.8 ms wall). A descriptor that is not a pipe, or a
    /// capacity above the system's limit, leaves everything as it was.
    /// Darwin's pipes grow by themselves and have no such request.
    static func widenPipe(_ descriptor: Int32) {
        #if os(Linux)
        _ = fcntl(descriptor, setPipeSize, pipeCapacity)
        #endif
    }

    #if os(Linux)
    /// `F_SETPIPE_SZ` of `<fcntl.h>` (a Linux ABI value), which the Glibc
    /// module leaves out (it needs `_GNU_SOURCE`).
    static let setPipeSize: Int32 = 1031
    #endif

    /// Whether a write has failed: what is written from now on is dropped.
    var hasFailed: Bool {
        state.withLock { $0.failure != nil }
    }

    /// Writes what is buffered; the first failure of the whole run, if any.
    ///
    /// Text printed around this writer through `stdio` (`print`) is
    /// flushed and checked too, so no path of a command escapes the check.
    func finish() -> Failure? {
        state.withLock { state in
            drain(&state)
            if state.failure == nil, descriptor == STDOUT_FILENO {
                errno = 0
                if fflush(nil) != 0 { state.failure = Failure(code: errno == 0 ? EIO : errno) }
            }
            return state.failure
        }
    }

    private func drain(_ state: inout State) {
        guard !state.buffer.isEmpty else { return }
        let buffer = state.buffer
        state.buffer.removeAll(keepingCapacity: true)
        writeAll(buffer, state: &state)
    }

    /// Writes all of `bytes`, resuming after short writes and interruptions.
    private func writeAll(_ bytes: [UInt8], state: inout State) {
        guard state.failure == nil else { return }
        // What `print` buffered goes first, so the order holds.
        if descriptor == STDOUT_FILENO { fflush(nil) }
        let failure = bytes.withUnsafeBytes { buffer -> Failure? in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    // `write` returning 0 for a non-empty buffer makes no
                    // progress: as good as an I/O error.
                    return Failure(code: written == 0 ? EIO : errno)
                }
            }
            return nil
        }
        if let failure { state.failure = failure }
    }
}
