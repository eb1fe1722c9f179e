import AASAKit
import Foundation
import Logging
import Testing

@testable import aasa

/// Issue 11 item 8: both log formats of `aasa serve` write a value taken
/// from a request or from the disk so that it stays one field on one line.
@Suite("Log formats")
struct LogFormatTests {
    static let time = Date(timeIntervalSince1970: 0)

    static func event(_ metadata: Logger.Metadata, message: Logger.Message = "request") -> LogEvent {
        LogEvent(
            level: .info,
            message: message,
            metadata: metadata,
            source: "AASAServer",
            file: #fileID,
            function: #function,
            line: #line
        )
    }

    static func text(_ metadata: Logger.Metadata, message: Logger.Message = "request") -> String {
        TextLogHandler.format(event: event(metadata, message: message), label: "aasa", metadata: [:], time: time)
    }

    /// The fields of a text line, split the way a logfmt reader would:
    /// on spaces outside quotes, honouring `\"` inside them.
    static func fields(_ line: String) -> [String: String] {
        var fields: [String: String] = [:]
        var current = ""
        var quoted = false
        var escaped = false
        for character in line.dropLast() {  // the newline
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                current.append(character)
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == " ", !quoted {
                if let equals = current.firstIndex(of: "=") {
                    fields[String(current[..<equals])] = String(current[current.index(after: equals)...])
                }
                current = ""
            } else {
                current.append(character)
            }
        }
        if let equals = current.firstIndex(of: "=") {
            fields[String(current[..<equals])] = String(current[current.index(after: equals)...])
        }
        return fields
    }

    @Test func aForgedFieldInHostStaysInsideTheHostField() {
        let line = Self.text(["http.host": "evil.example http.status=200", "http.status": "404"])
        let fields = Self.fields(line)
        #expect(fields["http.status"] == "404")
        #expect(fields["http.host"] == "evil.example http.status=200")
        #expect(line.contains(#"http.host="evil.example http.status=200""#))
    }

    @Test(arguments: [
        ("newline", "a\nhttp.status=200", #""a\nhttp.status=200""#),
        ("carriage return", "a\rb", #"a\rb"#),
        ("terminal escape", "\u{1B}[31mred", #"\u{1b}[31mred"#),
        ("quote", #"a" http.status="200"#, #""a\" http.status=\"200""#),
        ("backslash", #"a\"#, #"a\"#),
        ("empty", "", #""""#),
        ("non-ASCII", "café", #"caf\u{e9}"#),
        ("NUL", "a\u{0}b", #"a\u{0}b"#),
    ])
    func controlCharactersAndQuotesAreEscaped(_ name: String, value: String, written: String) {
        let line = Self.text(["http.target": .string(value), "http.status": "404"])
        #expect(line.contains("http.target=\(written)"), "\(name): \(line)")
        #expect(line.filter { $0 == "\n" } == "\n", "\(name): one line")
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(name): no raw control byte")
        #expect(Self.fields(line)["http.status"] == "404", "\(name)")
    }

    /// A directory name reaches the log in the message and as a value.
    @Test func aDirectoryNameWithANewlineCannotStartALine() {
        let line = Self.text(
            ["host": "x\n2026-01-01T00:00:00Z error aasa: forged"],
            message: "skipped x\nforged"
        )
        #expect(line.filter { $0 == "\n" } == "\n")
        #expect(line.contains(#"skipped x\nforged"#))
    }

    @Test func jsonKeepsEveryValueAStringOfItsOwn() throws {
        let value = "evil.example\", \"http.status\": \"200\n\u{1B}[31m"
        let line = JSONLogHandler.format(
            event: Self.event(["http.host": .string(value), "http.status": "404"]),
            label: "aasa",
            metadata: [:],
            time: Self.time
        )
        #expect(line.filter { $0 == "\n" } == "\n")
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(object?["http.host"] as? String == value)
        #expect(object?["http.status"] as? String == "404")
    }
}
