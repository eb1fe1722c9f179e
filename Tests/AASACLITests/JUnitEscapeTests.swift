import Testing

@testable import aasa

/// JUnit's XML escaping returns a text without anything to escape as it
/// is, after a scan of its bytes; it must be what the character-by-character
/// escaping makes of every text, special or not.
@Suite struct JUnitEscapeTests {
    /// The escaping as it was before the byte scan: every character looked at.
    static func reference(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case _ where character.unicodeScalars.contains { $0.value < 0x20 && !"\t\n\r".unicodeScalars.contains($0) }:
                escaped += "\u{FFFD}"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    @Test func randomTextsEscapeAsCharacterByCharacter() {
        let pieces = [
            "https://example.com/a", "é", "e\u{301}", "例え", "&", "<", ">", "\"", "'", "\t", "\r\n", "\n", "\u{1}",
            "\u{1}\u{301}", "\u{1F}", " ", "%20", "🇫🇷", "\u{7F}", "&\u{301}", "\"\u{20DD}", "\0",
        ]
        // SplitMix64, so that a failure can be replayed.
        var state: UInt64 = 0x4A55_4E49
        func below(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        var plain = 0
        for _ in 0..<4_000 {
            // Mostly plain pieces, so that both paths are taken often.
            let text = (0..<below(6)).map { _ in below(3) == 0 ? pieces[below(pieces.count)] : pieces[below(3)] }
                .joined()
            let escaped = LinkTestOutput.escape(text)
            #expect(escaped == Self.reference(text), "\(text.debugDescription)")
            #expect(Array(escaped.utf8) == Array(Self.reference(text).utf8))
            if escaped == text { plain += 1 }
        }
        // Both paths taken.
        #expect(plain > 200)
        #expect(plain < 3_800)
    }
}
