/// Bad input the user must fix (an unreadable file, a file that is not JSON,
/// options that do not go together): commands print it as `error: …` on
/// stderr and exit 2.
///
/// Not `ValidationError`, which exits 64: the tool promises CI a 2 for bad input.
struct InputError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
