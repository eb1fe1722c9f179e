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

    public init(_ severity: Severity, code: String, path: JSONPath, message: String, file: String? = nil) {
        self.severity = severity
        self.code = code
        self.path = path
        self.message = message
        self.file = file
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
}

extension Diagnostic: CustomStringConvertible {
    /// `file: path: severity: message [code]`, the compiler-style line that
    /// editors and CI logs understand.
    public var description: String {
        var text = ""
        if let file { text += "\(file): " }
        text += "\(path): \(severity.rawValue): \(message) [\(code)]"
        return text
    }

    /// The JSON rendering: `{"severity","code","path","message"}` plus `file`
    /// when known.
    public var json: JSONValue {
        var object = JSONObject()
        object["severity"] = .string(severity.rawValue)
        object["code"] = .string(code)
        object["path"] = .string(path.description)
        object["message"] = .string(message)
        if let file { object["file"] = .string(file) }
        return .object(object)
    }
}

extension Sequence<Diagnostic> {
    public var hasErrors: Bool { contains { $0.severity == .error } }
}
