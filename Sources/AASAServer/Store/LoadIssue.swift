/// Something wrong found by a load: where, why (a code to switch on) and a
/// message for people. A host with an issue keeps serving its last good file.
public struct LoadIssue: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Code: Sendable, Hashable {
        /// The file failed validation: the diagnostic's code
        /// (`file.too-large`, `json.syntax`, `schema.type`, …).
        case invalidFile(diagnostic: String)
        /// A lint warning of a file served anyway (in ``LoadOutcome/warnings``).
        case servedWithWarning(diagnostic: String)
        /// A file or directory could not be read.
        case unreadable(FileSystemError.Code)
        /// A TLS certificate or key that cannot be used.
        case certificate
        /// An entry of the served directory that is not a host directory
        /// (a FIFO, a symlink to a file, an invalid name, a second spelling
        /// of a host already seen).
        case notAHostDirectory
        /// A host directory with neither served file in it.
        case noServedFile
        /// A symlinked alias whose target is not served.
        case aliasTargetNotServed
        /// A `hosts.aliases` entry that cannot be applied.
        case badConfiguredAlias
        /// `hosts.default` names a host that is not served.
        case defaultHostNotServed
    }

    /// The host directory concerned, when there is one.
    public var host: String?
    /// The path relative to the served directory (`brand.example/assetlinks.json`),
    /// or the configuration key (`hosts.aliases`).
    public var path: String
    public var code: Code
    public var message: String

    public init(host: String?, path: String, code: Code, message: String) {
        self.host = host
        self.path = path
        self.code = code
        self.message = message
    }

    public var description: String { "\(path): \(message)" }

    /// The issue for a failed file-system call: `context` says what was
    /// being done, `kept` what is served instead.
    init(host: String?, error: FileSystemError, context: String? = nil, kept: String? = nil) {
        var message = context.map { "\($0): \(error.reason)" } ?? error.reason
        if let kept { message += "; \(kept)" }
        self.init(host: host, path: error.path, code: .unreadable(error.code), message: message)
    }

    /// What is served instead of a file or host that failed.
    static func kept(previous: Bool) -> String {
        previous ? "the previous version stays served" : "not served"
    }

    /// A name from the directory as it may be shown in a message or a log
    /// line: bytes outside printable ASCII, spaces and backslashes become
    /// `\xHH`, so a directory named with a newline, an escape sequence or a
    /// fake `key=value` cannot forge a line or a field. Valid host names
    /// come out unchanged.
    static func printable(_ name: String) -> String {
        var shown = ""
        for byte in name.utf8 {
            if byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") {
                shown.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                shown += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return shown
    }
}
