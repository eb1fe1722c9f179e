/// Bad input the user must fix (an unreadable file, a file that is not JSON,
/// options that do not go together): commands print it as `error: …` on
/// stderr and exit 2.
///
/// Commands print it themselves, with their other output, and throw
/// `ExitCode(2)`; argument-parser's `ValidationError` is for argument
/// combinations found while parsing (`aasa`'s `main()` exits 2 for it too).
struct InputError: Error, CustomStringConvertible {
    /// The file or directory the error is about, when it is about one
    /// (machine-readable output reports it apart from the message).
    var path: String?
    /// What is wrong, without the path.
    var message: String

    /// `path: message`, or the message alone.
    var description: String { path.map { "\($0): \(message)" } ?? message }

    init(_ description: String) {
        self.message = description
    }

    init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }
}
