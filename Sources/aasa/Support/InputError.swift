/// Bad input the user must fix (an unreadable file, a file that is not JSON,
/// options that do not go together): commands print it as `error: …` on
/// stderr and exit 2.
///
/// Commands print it themselves, with their other output, and throw
/// `ExitCode(2)`; argument-parser's `ValidationError` is for argument
/// combinations found while parsing (`aasa`'s `main()` exits 2 for it too).
struct InputError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
