/// Patterns written in the wrong encoding for their `percentEncoded` flag
/// (§3.5). The pattern is always used as written, never re-encoded, so:
///
/// - with `percentEncoded` true (the default) URLs are compared encoded, and a
///   pattern holding raw non-ASCII text or spaces can never match them;
/// - with `percentEncoded` false URLs are decoded first, and a pattern holding
///   `%XX` escapes can never match the decoded text.
///
/// The effective flag includes the defaults chain: a `percentEncoded: false`
/// in `applinks.defaults` applies to every component that does not say
/// otherwise.
struct EncodingLints: LintRule {
    func diagnostics(in context: LintContext) -> [Diagnostic] {
        context.patterns.compactMap { site in
            let literal = site.kind.expandsVariables ? VariableReference.literalText(of: site.pattern) : site.pattern
            return site.flags.percentEncoded ? unencoded(site, literal: literal) : encoded(site, literal: literal)
        }
    }

    private func unencoded(_ site: PatternSite, literal: String) -> Diagnostic? {
        // Every scalar the test picks has a UTF-8 byte it also picks (a
        // space or control, DEL, or any byte of a non-ASCII scalar): the
        // bytes are checked first, the scalars only for a finding.
        guard literal.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }),
            let offending = literal.unicodeScalars.first(where: Self.neverRawInURLs)
        else { return nil }
        let shown =
            offending == " " ? "a space" : "\(quoted(String(offending))) (arrives as \(Self.encode(String(offending))))"
        return .warning(
            "lint.unencoded-pattern",
            at: site.path,
            """
            the pattern contains \(shown), but URLs reach the system percent-encoded and with percentEncoded true \
            (the default) they are compared encoded, so this pattern never matches; write \
            \(quoted(Self.encode(site.pattern))) or set percentEncoded to false
            """
        )
    }

    private func encoded(_ site: PatternSite, literal: String) -> Diagnostic? {
        guard let escape = Self.firstEscape(in: literal) else { return nil }
        var message = """
            the pattern contains the escape \(escape), but with percentEncoded false the system decodes the URL \
            before comparing, so this pattern never matches
            """
        if let decoded = PercentEncoding.decode(Substring(site.pattern)), decoded != site.pattern {
            message += "; write \(quoted(decoded)) or remove percentEncoded: false"
        }
        return .warning("lint.encoded-pattern", at: site.path, message)
    }

    /// Characters a URL parser always percent-encodes: non-ASCII, spaces and
    /// controls.
    static func neverRawInURLs(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value <= 0x20 || scalar.value >= 0x7F
    }

    /// `text` with the characters of ``neverRawInURLs(_:)`` escaped as a URL
    /// parser escapes them (UTF-8, uppercase hex); the rest as written.
    static func encode(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            guard neverRawInURLs(scalar) else {
                output.unicodeScalars.append(scalar)
                continue
            }
            for byte in String(scalar).utf8 {
                output += PercentEncoding.escape(byte)
            }
        }
        return output
    }

    /// The first `%XX` with two hex digits in `text`.
    static func firstEscape(in text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 3 else { return nil }
        for index in 0..<(bytes.count - 2) where bytes[index] == UInt8(ascii: "%") {
            if isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) {
                return String(decoding: bytes[index..<index + 3], as: UTF8.self)
            }
        }
        return nil
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default:
            false
        }
    }
}
