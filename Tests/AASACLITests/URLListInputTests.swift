import AASAKit
import Foundation
import Testing

@testable import aasa

/// `aasa match -` reads standard input as bytes: the lines it finds must be
/// exactly the ones the list found when it read all of it as one `String`.
@Suite("aasa match - input lines")
struct URLListInputTests {
    /// The rule the list had when it decoded its input as one `String`.
    static func reference(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    static func texts(_ bytes: [UInt8]) -> [String] {
        let input = URLListInput(bytes: bytes)
        return input.entries.map(input.text(of:))
    }

    static let cases = [
        "https://a.example/1\nhttps://a.example/2\n",
        "https://a.example/1\r\nhttps://a.example/2\r\n",
        "https://a.example/1\r\n\r\n\r\nhttps://a.example/2",
        "  https://a.example/1\t \n\t\n   \n\nhttps://a.example/2  ",
        "https://a.example/1\rhttps://a.example/2\r",
        "https://a.example/1\u{0B}https://a.example/2\u{0C}https://a.example/3",
        "https://a.example/1\u{85}https://a.example/2\u{2028}https://a.example/3\u{2029}x",
        "\u{A0}https://a.example/café\u{3000}\n\u{2003}\n",
        "https://a.example/\u{301}\n\u{301}https://a.example/2\n",
        "\r\n\n\r",
        "\u{FEFF}https://a.example/bom\n",
        "https://a.example/a b\n x \t\r\n",
        "",
    ]

    /// CRLF, CR, blank and whitespace-only lines, every Unicode newline and
    /// non-ASCII spaces: the same entries as the old `String` rule.
    @Test(arguments: cases)
    func linesAreTheOnesTheStringRuleFinds(_ text: String) {
        #expect(Self.texts(Array(text.utf8)) == Self.reference(text))
    }

    /// Plain ASCII lines stay bytes (no `String` until a thread parses
    /// them); a line with non-ASCII text in it is decoded.
    @Test func asciiLinesAreNotDecodedUpFront() {
        let input = URLListInput(bytes: Array("  https://a.example/1\r\nhttps://a.example/é\n".utf8))
        #expect(input.entries.count == 2)
        #expect(input.entries.first == .ascii(2..<21))
        #expect(input.entries.last == .text("https://a.example/é"))
    }

    /// A line that is not UTF-8 is an error naming the line and the byte,
    /// never a URL decoded with U+FFFD in it; the lines around it stay.
    @Test func invalidUTF8IsAnErrorEntryForItsLine() throws {
        var bytes = Array("https://a.example/1\n\nhttps://a.example/".utf8)
        bytes += [0xFF, 0x41]
        bytes += Array("\r\nhttps://a.example/2\n".utf8)
        let input = URLListInput(bytes: bytes)
        try #require(input.entries.count == 3)
        guard case .invalid(let text, let error) = input.entries[1] else {
            Issue.record("not an invalid entry: \(input.entries[1])")
            return
        }
        #expect(text == "https://a.example/\u{FFFD}A")
        #expect(error == "standard input, line 3: not UTF-8 text (byte 0xFF at offset 18)")
        #expect(input.text(of: input.entries[2]) == "https://a.example/2")
    }

    /// A truncated multi-byte sequence at the end of a line is invalid too.
    @Test func aTruncatedSequenceIsInvalid() {
        let input = URLListInput(bytes: Array("https://a.example/".utf8) + [0xC3])
        #expect(input.entries.count == 1)
        guard case .invalid(_, let error)? = input.entries.first else {
            Issue.record("not an invalid entry: \(input.entries)")
            return
        }
        #expect(error.hasSuffix("(byte 0xC3 at offset 18)"))
    }

    /// Standard input is read to its end, across many reads.
    @Test func readReadsToTheEnd() throws {
        let pipe = Pipe()
        let payload = [UInt8]((0..<300_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        let writer = pipe.fileHandleForWriting
        let write = Thread {
            writer.write(Data(payload))
            try? writer.close()
        }
        write.start()
        let read = try URLListInput.read(descriptor: pipe.fileHandleForReading.fileDescriptor)
        #expect(read == payload)
    }

    /// A descriptor that cannot be read is bad input, not an empty list.
    @Test func anUnreadableDescriptorIsAnError() throws {
        let pipe = Pipe()
        #expect(throws: InputError.self) {
            try URLListInput.read(descriptor: pipe.fileHandleForWriting.fileDescriptor)
        }
    }
}
