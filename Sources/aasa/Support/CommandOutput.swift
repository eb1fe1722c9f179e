import ArgumentParser
import Foundation
import Synchronization

/// Where a command's text goes: stdout and stderr in the tool, a buffer in
/// tests, so tests read exactly what a user would see without capturing the
/// process's file descriptors.
struct CommandOutput: Sendable {
    private let writeOut: @Sendable (String) -> Void
    private let writeOutPieces: @Sendable ([[UInt8]]) -> Void
    private let writeOutPart: @Sendable ([UInt8]) -> Void
    private let writeError: @Sendable (String) -> Void
    private let finishOut: @Sendable () -> ReportWriter.Failure?
    private let outFailed: @Sendable () -> Bool
    private let keep: @Sendable (any Sendable) -> Void

    init(
        out: @escaping @Sendable (String) -> Void,
        outPieces: @escaping @Sendable ([[UInt8]]) -> Void,
        outPart: @escaping @Sendable ([UInt8]) -> Void,
        error: @escaping @Sendable (String) -> Void,
        finish: @escaping @Sendable () -> ReportWriter.Failure? = { nil },
        failed: @escaping @Sendable () -> Bool = { false },
        keep: @escaping @Sendable (any Sendable) -> Void = { _ in }
    ) {
        self.writeOut = out
        self.writeOutPieces = outPieces
        self.writeOutPart = outPart
        self.writeError = error
        self.finishOut = finish
        self.outFailed = failed
        self.keep = keep
    }

    /// The process's stdout and stderr. What it is asked to keep stays
    /// until the process exits.
    static let standard = CommandOutput(writer: .standardOutput, keepsUntilExit: true)

    /// Values the process's own output keeps; never emptied.
    private static let keptUntilExit = Mutex<[any Sendable]>([])

    /// Reports through `writer`, errors on stderr.
    init(writer: ReportWriter, keepsUntilExit: Bool = false) {
        self.init(
            out: { writer.line($0) },
            outPieces: { writer.write(pieces: $0) },
            outPart: { writer.write(piece: $0) },
            error: { Terminal.printError($0) },
            finish: { writer.finish() },
            failed: { writer.hasFailed },
            keep: { value in
                guard keepsUntilExit else { return }
                Self.keptUntilExit.withLock { $0.append(value) }
            }
        )
    }

    /// Keeps `value` (a report, the list it was made from) alive until the
    /// process exits, when this is the process's own output: the command
    /// ends the process right after its report, and the kernel takes back
    /// the pages at once, where freeing a 100,000-URL run object by object
    /// (each URL's strings released) took milliseconds on one core. Any
    /// other output (tests running many commands in one process) frees it
    /// as usual.
    func keepUntilExit(_ value: any Sendable) {
        keep(value)
    }

    /// Writes out what is buffered for stdout; the first write to it that
    /// failed, if any: the report the user got is then incomplete.
    func finish() -> ReportWriter.Failure? {
        finishOut()
    }

    /// Prints `text` and a newline on stdout.
    func line(_ text: String) {
        writeOut(text)
    }

    /// Prints `text` and a newline on stderr.
    func errorLine(_ text: String) {
        writeError(text)
    }

    /// Prints text already encoded as UTF-8, in pieces (a long report is
    /// rendered in parts across the cores and written without joining them),
    /// and a newline.
    func line(pieces: [[UInt8]]) {
        writeOutPieces(pieces)
    }

    /// ``report(_:)`` for a report streamed: `render` hands its parts to
    /// the function it is given, in order, and they are written as they
    /// come (a long report is never held whole); then a newline. The
    /// function answers whether to go on: `false` once a write to stdout
    /// has failed, so the rest is not rendered for nothing (the failure
    /// itself is reported by ``finish()``, exit status 2).
    /// `exitCode` is asked once the report is rendered: a report rendered
    /// while its run goes on knows it only then.
    func report(streaming result: Result<(render: LinkTestOutput.Render, exitCode: () -> Int32), InputError>) throws {
        switch result {
        case .failure(let error):
            try report(.failure(error))
        case .success(let report):
            report.render { part in
                writeOutPart(part)
                return !outFailed()
            }
            writeOutPieces([])
            // Once stdout failed the status is 2 (``finish()``), whatever
            // the run decides: it is not waited for.
            guard !outFailed() else { return }
            let exitCode = report.exitCode()
            if exitCode != 0 { throw ExitCode(exitCode) }
        }
    }

    /// Prints a command's rendered report and ends with its exit code: 0
    /// returns, anything else is thrown as `ExitCode`; bad input prints
    /// `error: …` on stderr and exits 2.
    func report(_ result: Result<(output: String, exitCode: Int32), InputError>) throws {
        switch result {
        case .failure(let error):
            errorLine("error: \(error.description)")
            throw ExitCode(2)
        case .success(let report):
            line(report.output)
            if report.exitCode != 0 { throw ExitCode(report.exitCode) }
        }
    }

    /// An output that records every line, and the record to read back.
    static func recording() -> (CommandOutput, RecordedOutput) {
        let record = RecordedOutput()
        let output = CommandOutput(
            out: { text in record.streams.withLock { $0.out.append(text) } },
            outPieces: { pieces in
                record.streams.withLock { streams in
                    // A streamed report's parts came before: one line with them.
                    let text = String(decoding: streams.part + pieces.joined(), as: UTF8.self)
                    streams.part = []
                    streams.out.append(text)
                }
            },
            outPart: { part in record.streams.withLock { $0.part += part } },
            error: { text in record.streams.withLock { $0.error.append(text) } }
        )
        return (output, record)
    }
}

/// The lines a recording ``CommandOutput`` received.
final class RecordedOutput: Sendable {
    fileprivate let streams = Mutex<(out: [String], error: [String], part: [UInt8])>(([], [], []))

    /// Everything written to stdout, one element per `line(_:)` call.
    var out: [String] { streams.withLock { $0.out } }
    /// Everything written to stderr.
    var error: [String] { streams.withLock { $0.error } }
    /// stdout as one text, lines joined with newlines.
    var outText: String { out.joined(separator: "\n") }
}

extension Result where Failure == InputError {
    /// `Result(catching:)` for an async body.
    static func catching(_ body: () async throws(InputError) -> Success) async -> Result {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
