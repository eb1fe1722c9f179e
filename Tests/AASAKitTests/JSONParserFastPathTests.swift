import Testing

@testable import AASAKit

/// Strings without escapes are validated in one call; the result and the
/// errors must be those of the scalar-by-scalar path.
@Suite struct JSONParserFastPathTests {
    @Test func plainAndEscapedStringsDecodeAlike() throws {
        let document = try JSONParser().parse(#"["https://h/caf\u00e9", "https://h/café", "a\"b", "", "日本"]"#)
        let strings = document.value.arrayValue?.compactMap(\.stringValue)
        #expect(strings == ["https://h/café", "https://h/café", "a\"b", "", "日本"])
    }

    /// Invalid UTF-8 is still reported at the offending byte.
    @Test(arguments: [
        ([0x5B, 0x22, 0x61, 0x62, 0xFF, 0x22, 0x5D], 4),  // ["ab<FF>"]
        ([0x22, 0x61, 0xC0, 0xAF, 0x22], 2),  // overlong "/"
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // an encoded surrogate
        ([0x22, 0x61, 0xE2, 0x82, 0x22], 2),  // truncated sequence
    ])
    func invalidUTF8IsReportedWhereItIs(bytes: [UInt8], offset: Int) {
        let error = #expect(throws: JSONParseError.self) { try JSONParser().parse(bytes) }
        #expect(error?.reason == .invalidUTF8)
        #expect(error?.offset == offset)
    }

    @Test func controlCharacterStillRejected() {
        let error = #expect(throws: JSONParseError.self) { try JSONParser().parse([0x22, 0x61, 0x0A, 0x22]) }
        #expect(error?.reason == .controlCharacterInString)
        #expect(error?.offset == 2)
    }
}
