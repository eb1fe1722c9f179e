import Foundation
import Testing

@testable import aasa

#if canImport(FoundationXML)
import FoundationXML
#endif

/// JUnit's XML escaping: whatever a URL or message holds, the text must
/// read back as itself (control characters XML cannot carry aside) from
/// well-formed XML, in an attribute and in content alike.
@Suite struct JUnitEscapeTests {
    static let pieces = [
        "https://example.com/a", "é", "e\u{301}", "例え", "&", "<", ">", "\"", "'", "\t", "\r\n", "\n", "\u{1}",
        "\u{1}\u{301}", "\u{1F}", " ", "%20", "🇫🇷", "\u{7F}", "&\u{301}", "\"\u{20DD}", "<\u{338}", "\0",
    ]

    /// What a reader of the XML must get back: the text, with each control
    /// character XML 1.0 cannot carry replaced by U+FFFD.
    static func expected(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.value < 0x20 && !"\t\n\r".unicodeScalars.contains($0) ? "\u{FFFD}" : $0 }
            )
        )
    }

    /// Reads `<r a="…">…</r>` back with Foundation's XML parser.
    final class ReadBack: NSObject, XMLParserDelegate {
        var attribute: String?
        var content = ""

        func parser(
            _ parser: XMLParser,
            didStartElement elementName: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            attribute = attributes["a"]
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            content += string
        }
    }

    @Test func randomTextsReadBackFromWellFormedXML() throws {
        var random = SplitMix(seed: 0x4A55_4E49)
        func below(_ bound: Int) -> Int { random.below(bound) }
        var plain = 0
        for _ in 0..<2_000 {
            // Mostly plain pieces, so that both the unchanged and the escaped way are taken often.
            let pieces = Self.pieces
            let text = (0..<below(6)).map { _ in below(3) == 0 ? pieces[below(pieces.count)] : pieces[below(3)] }
                .joined()
            let escaped = LinkTestOutput.escape(text)
            if escaped == text { plain += 1 }
            let document = "<r a=\"\(escaped)\">\(escaped)</r>"
            let parser = XMLParser(data: Data(document.utf8))
            let reader = ReadBack()
            parser.delegate = reader
            #expect(parser.parse(), "not well-formed: \(text.debugDescription) → \(escaped.debugDescription)")
            // Line ends are read as LF (XML's end-of-line handling).
            let content = Self.expected(text).replacingOccurrences(of: "\r\n", with: "\n")
                .replacingOccurrences(of: "\r", with: "\n")
            #expect(reader.content == content, "\(text.debugDescription)")
            // An attribute's line breaks and tabs are read as spaces (XML's attribute normalisation).
            let attribute = Self.expected(text).replacingOccurrences(of: "\r\n", with: " ")
                .replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
                .replacingOccurrences(of: "\t", with: " ")
            #expect(reader.attribute == attribute, "\(text.debugDescription)")
        }
        #expect(plain > 100)
        #expect(plain < 1_900)
    }

    /// The case characters got wrong: `&` joined by a combining mark is one
    /// `Character`, but its `&` must still be escaped.
    @Test func aMarkAfterASpecialCharacterDoesNotHideIt() {
        #expect(LinkTestOutput.escape("a=1&\u{301}b") == "a=1&amp;\u{301}b")
        #expect(LinkTestOutput.escape("\"\u{20DD}") == "&quot;\u{20DD}")
    }
}
