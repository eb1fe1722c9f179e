import Logging
import NIOConcurrencyHelpers

/// A log handler keeping every entry, for tests that check what is logged.
final class LogRecorder: Sendable {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let entries = NIOLockedValueBox<[Entry]>([])

    var all: [Entry] { entries.withLockedValue { $0 } }

    func entries(_ message: String) -> [Entry] { all.filter { $0.message == message } }

    var logger: Logger {
        var logger = Logger(label: "aasa-test") { _ in Handler(recorder: self) }
        logger.logLevel = .trace
        return logger
    }

    fileprivate func append(_ entry: Entry) {
        entries.withLockedValue { $0.append(entry) }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            recorder.append(
                Entry(
                    level: event.level,
                    message: event.message.description,
                    metadata: merged.mapValues(\.description)
                )
            )
        }
    }
}
