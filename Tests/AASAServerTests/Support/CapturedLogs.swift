import Logging
import NIOConcurrencyHelpers

/// A logger whose lines a test can read back: message and metadata.
final class CapturedLogs: Sendable {
    struct Line: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]
    }

    private let lines = NIOLockedValueBox<[Line]>([])

    var logger: Logger {
        Logger(label: "aasa-test") { _ in Handler(logs: self) }
    }

    /// Every line so far.
    var all: [Line] { lines.withLockedValue { $0 } }

    /// The lines so far with this message.
    func entries(_ message: String) -> [Line] { all.filter { $0.message == message } }

    /// The messages so far, and forgets them.
    func take() -> [Line] {
        lines.withLockedValue { lines in
            defer { lines = [] }
            return lines
        }
    }

    fileprivate func append(_ line: Line) {
        lines.withLockedValue { $0.append(line) }
    }

    private struct Handler: LogHandler {
        let logs: CapturedLogs
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            logs.append(
                Line(
                    level: event.level,
                    message: event.message.description,
                    metadata: merged.mapValues { $0.description }
                )
            )
        }
    }
}
