import Foundation

/// Output helpers shared by the reporting commands.
enum Terminal {
    /// Whether stderr is a terminal: progress is only drawn there, never into
    /// a CI log or a redirected file.
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }

    static func printError(_ text: String) {
        var standardError = StandardError()
        print(text, to: &standardError)
    }

    /// Redraws one progress line on stderr (terminal only).
    static func progress(_ text: String) {
        guard stderrIsTerminal else { return }
        var standardError = StandardError()
        print("\r\u{1B}[K\(text)", terminator: "", to: &standardError)
    }

    /// Clears the progress line.
    static func endProgress() {
        guard stderrIsTerminal else { return }
        var standardError = StandardError()
        print("\r\u{1B}[K", terminator: "", to: &standardError)
    }

    private struct StandardError: TextOutputStream {
        mutating func write(_ string: String) {
            FileHandle.standardError.write(Data(string.utf8))
        }
    }
}
