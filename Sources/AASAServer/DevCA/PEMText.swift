import SwiftASN1

/// PEM as files hold it: `PEMDocument.pemString` has no final newline, and
/// without one `cat a.pem b.pem` glues an `END` line to the next `BEGIN`.
enum PEMText {
    static func text(_ document: PEMDocument) -> String {
        document.pemString.hasSuffix("\n") ? document.pemString : document.pemString + "\n"
    }
}
