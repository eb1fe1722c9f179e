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

    /// The escape scan reads eight bytes at a time: a byte that needs an
    /// escape is found at every place of a word and of the tail after the
    /// last whole word, and bytes next to the escaped ones (space, `!`,
    /// `#`, `[`, `]`, DEL, non-ASCII) are copied as they are.
    @Test(arguments: ["\u{0}", "\u{1F}", "\"", "\\", " ", "!", "#", "[", "]", "\u{7F}", "é", "😀"])
    func escapeFoundAtEveryPlace(special: String) {
        for length in 0..<20 {
            for place in 0...length {
                let text =
                    String(repeating: "a", count: place) + special + String(repeating: "b", count: length - place)
                #expect(JSONValue.string(text).serialized() == Self.quoted(text), "\(length) \(place)")
            }
        }
    }

    /// The text of a JSON string, escaped one character at a time.
    private static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case _ where scalar.value < 0x20: quoted += String(format: "\\u%04x", scalar.value)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
