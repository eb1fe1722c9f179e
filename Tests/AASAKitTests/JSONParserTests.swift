import Testing

@testable import AASAKit

@Suite("JSON parser")
struct JSONParserTests {
    @Test(arguments: [
        ("{\"a\":[1,2.5,-3e2,true,false,null,\"x\"]}", true),
        ("\"\\u00e9\\ud83d\\ude00\"", true),
        ("", false),
        ("{", false),
        ("{\"a\":1,}", false),
        ("[1 2]", false),
        ("01", false),
        ("1.", false),
        ("nul", false),
        ("\"\\x\"", false),
        ("\"\\ud800\"", false),
        ("\"a\u{1}b\"", false),
        ("{} {}", false),
        // Found by fuzzing (Fuzz/regressions/aasakit/nonfinite-number-1e999.json).
        ("1e999", false),
        ("[-1e999]", false),
    ])
    func acceptsExactlyJSON(text: String, valid: Bool) {
        let parsed = (try? JSONParser().parse(text)) != nil
        #expect(parsed == valid, "\(text)")
    }

    @Test func errorsCarryLineAndColumn() throws {
        let error = try #require(throws: JSONParseError.self) { try JSONParser().parse("{\n  \"a\": tru\n}") }
        #expect(error.line == 2)
        #expect(error.column == 8)
        #expect(error.description == "invalid JSON at line 2, column 8: invalid literal (expected true, false or null)")
    }

    @Test func invalidUTF8AndByteOrderMarkAreRejected() {
        #expect(throws: JSONParseError.self) { try JSONParser().parse([0x22, 0xFF, 0x22]) }
        let bom = [0xEF, 0xBB, 0xBF] + Array("{}".utf8)
        #expect(throws: JSONParseError.self) { try JSONParser().parse(bom) }
    }

    @Test func nestingIsBoundedWithoutRecursingPastTheLimit() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = #expect(throws: JSONParseError.self) { try JSONParser().parse(deep) }
        #expect(error?.reason == .tooDeep(limit: 256))
        #expect(
            (try? JSONParser(maximumDepth: 300).parse(
                String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
            )) != nil
        )
    }

    @Test func keepsMemberOrderAndReportsDuplicates() throws {
        let document = try JSONParser().parse("{\"b\":1,\"a\":{\"x\":1,\"x\":2}}")
        #expect(document.value.objectValue?.keys == ["b", "a"])
        #expect(document.value["a"]?["x"] == 2)
        #expect(document.duplicateKeys.map(\.description) == ["a.x"])
    }

    @Test(arguments: [
        "{\"applinks\":{\"details\":[{\"appIDs\":[\"A.b\"],\"components\":[{\"/\":\"/é\",\"#\":\"a\\\"b\\n\"}]}]}}",
        "[1,-2.5,1e-7,true,null,{}]",
    ])
    func serializationRoundTrips(text: String) throws {
        let value = try JSONParser().parse(text).value
        #expect(try JSONParser().parse(value.serialized()).value == value)
        #expect(try JSONParser().parse(value.serialized(pretty: true)).value == value)
    }

    @Test func stringsCompareByScalarsNotCanonicalEquivalence() {
        #expect(JSONValue.string("\u{E9}") != JSONValue.string("e\u{301}"))
        #expect(JSONValue.number(1) == JSONValue.number(1.0))
        #expect(
            JSONValue.object(JSONObject([("a", 1), ("b", 2)])) == JSONValue.object(JSONObject([("b", 2), ("a", 1)]))
        )
    }
}
