/// The spelling Google requires of `sha256_cert_fingerprints` entries: 32
/// bytes, each two **uppercase** hex digits, separated by colons, exactly as
/// `keytool -list -v` prints the SHA-256 line. Lowercase hex, missing colons
/// and 31 or 33 bytes are all malformed, and one malformed entry fails the
/// whole file.
public enum CertificateFingerprint {
    static let byteCount = 32

    /// Whether Google accepts `text` as a fingerprint.
    public static func isValid(_ text: String) -> Bool {
        let bytes = text.split(separator: ":", omittingEmptySubsequences: false)
        return bytes.count == byteCount && bytes.allSatisfy { isByte($0, lowercaseAllowed: false) }
    }

    /// `text` in the canonical spelling when it is a SHA-256 fingerprint in
    /// another one (lowercase, no colons, spaces or dashes between bytes,
    /// surrounding whitespace); `nil` when it is not one at all.
    public static func canonical(_ text: String) -> String? {
        let hex = text.uppercased().unicodeScalars.filter { !":- \t\r\n".unicodeScalars.contains($0) }
        guard hex.count == byteCount * 2, hex.allSatisfy({ $0.properties.isASCIIHexDigit }) else { return nil }
        let digits = Array(hex)
        return stride(from: 0, to: digits.count, by: 2).map { String(digits[$0]) + String(digits[$0 + 1]) }
            .joined(separator: ":")
    }

    /// Why Google rejects `text`, and its canonical spelling when it has one.
    static func problem(with text: String) -> SpellingProblem {
        let suggestion = canonical(text).flatMap { $0 == text ? nil : $0 }
        return SpellingProblem(reason: reason(text), suggestion: suggestion)
    }

    private static func reason(_ text: String) -> String {
        if text.isEmpty { return "the fingerprint is empty" }
        if let space = text.unicodeScalars.first(where: \.properties.isWhitespace) {
            return "the fingerprint contains whitespace (\(SpellingProblem.name(of: space)))"
        }
        let bytes = text.split(separator: ":", omittingEmptySubsequences: false)
        if bytes.count == 1, text.utf8.count == byteCount * 2 {
            return "the bytes are not separated by colons (AA:BB:…)"
        }
        if let bad = bytes.first(where: { !isByte($0, lowercaseAllowed: true) }) {
            return "\(quoted(String(bad))) is not a byte of two hex digits"
        }
        if bytes.count != byteCount {
            let sha1 = bytes.count == 20 ? " (20 bytes is a SHA-1 fingerprint; Android needs the SHA-256 one)" : ""
            return "it has \(bytes.count) bytes; a SHA-256 fingerprint has \(byteCount)\(sha1)"
        }
        return "the hex digits are lowercase; Google accepts only uppercase"
    }

    private static func isByte(_ text: Substring, lowercaseAllowed: Bool) -> Bool {
        text.utf8.count == 2
            && text.unicodeScalars.allSatisfy { scalar in
                ("0"..."9").contains(scalar) || ("A"..."F").contains(scalar)
                    || (lowercaseAllowed && ("a"..."f").contains(scalar))
            }
    }
}
