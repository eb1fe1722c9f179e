import AASAKit
import AASAServer
import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Bootstraps swift-log for `aasa serve`: text lines for people, or one JSON
/// object per line for log collectors. Both escape every value, so a value
/// taken from a request (a `Host` header, a target, a `User-Agent`) or from
/// the disk (a directory name) cannot forge a field, split a line or send
/// a terminal escape sequence.
enum LoggingSetup {
    /// The process's log: its root logger, and the writer to flush before exit.
    struct ProcessLog {
        let logger: Logger
        let writer: LogWriter

        /// Writes what is still queued, waiting at most `seconds`: the last
        /// lines (why it stopped, "cannot start") matter most, but a reader
        /// that never drains stderr must not keep a stopped server alive.
        func flush(within seconds: Double = 2) {
            writer.flush(deadline: Date(timeIntervalSinceNow: seconds))
        }
    }

    /// Lines go to stderr through one ``LogWriter`` thread, never written
    /// on the caller's (an event loop's) thread. Bootstrap metrics first:
    /// the writer registers `aasa_log_lines_dropped_total`.
    static func bootstrap(level: String, format: String) -> ProcessLog {
        // A write to a pipe whose reader is gone raises SIGPIPE, which kills
        // the process by default (Darwin and Linux alike); ignored, the
        // write fails with EPIPE, which the writer counts as dropped lines.
        signal(SIGPIPE, SIG_IGN)
        let logLevel = Logger.Level(rawValue: level.lowercased()) ?? .info
        let json = format == "json"
        let writer = LogWriter(output: LogOutput(descriptor: .standardError)) { count in
            let event = LogEvent(
                level: .warning,
                message: "log lines dropped: the log's reader fell behind or went away",
                metadata: ["count": "\(count)"],
                source: nil,
                file: #fileID,
                function: #function,
                line: #line
            )
            return json
                ? JSONLogHandler.format(event: event, label: "aasa", metadata: [:], time: Date())
                : TextLogHandler.format(event: event, label: "aasa", metadata: [:], time: Date())
        }
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                json
                ? JSONLogHandler(label: label, write: writer.submit)
                : TextLogHandler(label: label, write: writer.submit)
            handler.logLevel = logLevel
            return handler
        }
        return ProcessLog(logger: Logger(label: "aasa"), writer: writer)
    }
}

/// `<time> <level> <label>: <message> key=value key="value with spaces"` per
/// line, logfmt-style: a value is quoted when it is empty or holds
/// a space, `=` or `"`, and inside it `"` and `\` are escaped; control
/// characters and everything outside printable ASCII are written as
/// `\n`, `\r`, `\t` or `\u{…}` wherever they appear.
struct TextLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    /// Hands a formatted line (with its newline) to the ``LogWriter``.
    let write: @Sendable (String) -> Void

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        write(Self.format(event: event, label: label, metadata: metadata, time: Date()))
    }

    static func format(event: LogEvent, label: String, metadata: Logger.Metadata, time: Date) -> String {
        var line = "\(time.formatted(.iso8601)) \(event.level) \(escape(label)): \(escape(event.message.description))"
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        for key in merged.keys.sorted() {
            guard let value = merged[key] else { continue }
            line += " \(escape(key))=\(quote(value.description))"
        }
        return line + "\n"
    }

    /// A metadata value: escaped, and quoted when it could be read as more
    /// than one field.
    static func quote(_ value: String) -> String {
        let escaped = escape(value, quoteEscapes: true)
        let needsQuotes = value.isEmpty || value.contains { $0 == " " || $0 == "=" || $0 == "\"" }
        return needsQuotes ? "\"\(escaped)\"" : escaped
    }

    static func escape(_ text: String, quoteEscapes: Bool = false) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\"" where quoteEscapes: output += "\\\""
            case "\\" where quoteEscapes: output += "\\\\"
            case " "..."~": output.unicodeScalars.append(scalar)
            default: output += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return output
    }
}

/// `{"ts":…,"level":…,"label":…,"message":…,<metadata>}` per line.
/// JSON escapes quotes, backslashes and control characters itself.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    /// Hands a formatted line (with its newline) to the ``LogWriter``.
    let write: @Sendable (String) -> Void

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        write(Self.format(event: event, label: label, metadata: metadata, time: Date()))
    }

    static func format(event: LogEvent, label: String, metadata: Logger.Metadata, time: Date) -> String {
        var object = JSONObject()
        object["ts"] = .string(time.formatted(.iso8601))
        object["level"] = .string(event.level.rawValue)
        object["label"] = .string(label)
        object["message"] = .string(event.message.description)
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        for key in merged.keys.sorted() {
            if let value = merged[key] { object[key] = .string(value.description) }
        }
        return JSONValue.object(object).serialized() + "\n"
    }
}
