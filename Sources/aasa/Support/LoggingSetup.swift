import AASAKit
import Foundation
import Logging

/// Bootstraps swift-log for `aasa serve`: text lines (swift-log's stream
/// handler) or one JSON object per line for log collectors.
enum LoggingSetup {
    static func bootstrap(level: String, format: String) -> Logger {
        let logLevel = Logger.Level(rawValue: level.lowercased()) ?? .info
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                format == "json" ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            handler.logLevel = logLevel
            return handler
        }
        return Logger(label: "aasa")
    }
}

/// `{"ts":…,"level":…,"label":…,"message":…,<metadata>}` per line on stderr.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var object = JSONObject()
        object["ts"] = .string(Date().formatted(.iso8601))
        object["level"] = .string(event.level.rawValue)
        object["label"] = .string(label)
        object["message"] = .string(event.message.description)
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        for key in merged.keys.sorted() {
            if let value = merged[key] { object[key] = .string(value.description) }
        }
        FileHandle.standardError.write(Data((JSONValue.object(object).serialized() + "\n").utf8))
    }
}
