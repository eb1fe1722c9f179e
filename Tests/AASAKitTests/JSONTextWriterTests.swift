import AASAKit
import Foundation
import Testing

@Suite("JSON text writer")
struct JSONTextWriterTests {
    @Test(arguments: [
        (JSONValue.number(0), "0"),
        (.number(-7), "-7"),
        (.number(1_234_567_890_123), "1234567890123"),
        (.number(Double(Int64.min)), "-9.223372036854776e+18"),
        (.number(1.5), "1.5"),
        (.number(.infinity), "null"),
        (.string("a\"b\\c\n\t\u{01}\u{1F}é/"), #""a\"b\\c\n\t\u0001\u001fé/""#),
        (.bool(true), "true"),
        (.null, "null"),
        (JSONValue.object(JSONObject([("k", [1, "x"]), ("", .object(JSONObject()))])), #"{"k":[1,"x"],"":{}}"#),
    ])
    func compactText(value: JSONValue, text: String) {
        #expect(value.serialized() == text)
    }

    @Test func prettyTextIndentsByTwoSpaces() {
        let value: JSONValue = ["list": [1, [:]], "empty": []]
        #expect(value.serialized(pretty: true) == "{\n  \"list\": [\n    1,\n    {}\n  ],\n  \"empty\": []\n}")
    }

    /// Every escape the writer makes reads back as the string written,
    /// control characters, quotes, backslashes and non-ASCII alike.
    @Test func stringsReadBackAsWritten() throws {
        var scalars = (0..<0x80).compactMap(Unicode.Scalar.init)
        scalars += ["é", "€", "😀"]
        let text = String(String.UnicodeScalarView(scalars))
        let read = try JSONParser().parse(JSONValue.array([.string(text)]).serialized()).value
        #expect(read == .array([.string(text)]))
    }
}
