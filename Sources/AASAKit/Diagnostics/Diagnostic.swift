/// How much a finding matters. An `error` fails `aasa validate` and keeps a
/// file from being served; a `warning` is logged; `info` is advice.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
    case info
    case warning
    case error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }
}

/// One finding about a file: what, where, how bad, and what the system will
/// actually do about it.
public struct Diagnostic: Sendable, Hashable {
    public var severity: Severity
    /// A stable identifier (`schema.type`, `lint.unreachable-rule`) that users
    /// can grep for and that will not change between releases.
    public var code: String
    public var path: JSONPath
    public var message: String
    /// The file the finding is about, when there is one.
    public var file: String?
    /// Where in the file the value at ``path`` is written, once known (see
    /// ``ValidationReport/locating(in:)``).
    public var position: SourcePosition?

    public init(
        _ severity: Severity,
        code: String,
        path: JSONPath,
        message: String,
        file: String? = nil,
        position: SourcePosition? = nil
    ) {
        self.severity = severity
        self.code = code
        self.path = path
        self.message = message
        self.file = file
        self.position = position
    }

    public static func error(_ code: String, at path: JSONPath, _ message: String) -> Diagnostic {
        Diagnostic(.error, code: code, path: path, message: message)
    }

    public static func warning(_ code: String, at path: JSONPath, _ message: String) -> Diagnostic {
        Diagnostic(.warning, code: code, path: path, message: message)
    }

    public static func info(_ code: String, at path: JSONPath, _ message: String) -> Diagnostic {
        Diagnostic(.info, code: code, path: path, message: message)
    }

    /// The same finding attributed to `file`.
    public func inFile(_ file: String?) -> Diagnostic {
        var copy = self
        copy.file = file
        return copy
    }

    /// The same finding placed at `position` in its file.
    public func located(at position: SourcePosition?) -> Diagnostic {
        var copy = self
        copy.position = position
        return copy
    }
}

extension Diagnostic: CustomStringConvertible {
    /// The compiler-style line that editors and CI logs understand:
    /// `file:line:column: severity: path: message [code]` once the finding
    /// has a position, `file: path: severity: message [code]` before.
    public var description: String {
        var bytes: [UInt8] = []
        appendDescription(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``description``'s UTF-8 appended to `bytes`: the text report writes
    /// thousands of warnings this way, read in place, where a copy of each
    /// and a string made from five more cost more than the writing.
    package func appendDescription(to bytes: inout [UInt8]) {
        if let file {
            bytes += file.utf8
            bytes += (position == nil ? ": " : ":").utf8
        }
        if let position {
            bytes += "\(position): ".utf8
            bytes += severity.rawValue.utf8
            bytes += ": ".utf8
            path.appendDescription(to: &bytes)
        } else {
            path.appendDescription(to: &bytes)
            bytes += ": ".utf8
            bytes += severity.rawValue.utf8
        }
        bytes += ": ".utf8
        bytes += message.utf8
        bytes += " [".utf8
        bytes += code.utf8
        bytes.append(UInt8(ascii: "]"))
    }

    /// The JSON rendering: `{"severity","code","path","message"}`, plus
    /// `line` and `column` when located and `file` when known.
    public var json: JSONValue {
        var object = JSONObject()
        object["severity"] = .string(severity.rawValue)
        object["code"] = .string(code)
        object["path"] = .string(path.description)
        object["message"] = .string(message)
        if let position {
            object["line"] = .number(Double(position.line))
            object["column"] = .number(Double(position.column))
        }
        if let file { object["file"] = .string(file) }
        return .object(object)
    }
}

extension Sequence<Diagnostic> {
    public var hasErrors: Bool { contains { $0.severity == .error } }
}
