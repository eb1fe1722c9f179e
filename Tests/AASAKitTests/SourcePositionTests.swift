import Testing

@testable import AASAKit

/// Line and column of findings: the source map from JSON paths to where
/// their values are written, and reports placed with it.
@Suite("Source positions")
struct SourcePositionTests {
    static let text = """
        {
          "applinks": {
            "details": [
              {"appIDs": ["A.b"], "components": [{"/": "/x", "exclude": "yes"}]}
            ]
          },
          "appclips": {"apps": []}
        }
        """

    @Test(arguments: [
        ("(root)", JSONPath.root, 1, 1),
        ("applinks", JSONPath.root.appending("applinks"), 2, 15),
        ("details[0]", JSONPath.root.appending("applinks").appending("details").appending(0), 4, 7),
        (
            "exclude",
            JSONPath.root.appending("applinks").appending("details").appending(0).appending("components")
                .appending(0).appending("exclude"),
            4, 65
        ),
        ("appclips.apps", JSONPath.root.appending("appclips").appending("apps"), 7, 24),
    ])
    func valuesArePlacedWhereTheyAreWritten(_ name: String, _ path: JSONPath, _ line: Int, _ column: Int) throws {
        let map = try JSONSourceMap(bytes: Array(Self.text.utf8))
        let position = map.position(of: path)
        #expect(position.line == line, "\(name)")
        #expect(position.column == column, "\(name)")
        #expect(map.exactPosition(of: path) == position)
        // The offset is the value's first byte, whatever the line and column say.
        let byte = Array(Self.text.utf8)[position.offset]
        #expect([UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\"")].contains(byte), "\(name)")
    }

    @Test func aMissingMemberPointsAtTheObjectThatLacksIt() throws {
        let map = try JSONSourceMap(bytes: Array(Self.text.utf8))
        let details0 = JSONPath.root.appending("applinks").appending("details").appending(0)
        #expect(map.exactPosition(of: details0.appending("paths")) == nil)
        #expect(map.position(of: details0.appending("paths")) == map.position(of: details0))
        #expect(map.position(of: details0.appending("paths").appending(3).appending("x")) == map.position(of: details0))
        let pastTheEnd = JSONPath.root.appending("applinks").appending("details").appending(5)
        #expect(map.position(of: pastTheEnd).line == 3)
    }

    @Test func aKeyWrittenTwiceIsPlacedAtItsLastOccurrence() throws {
        let map = try JSONSourceMap(bytes: Array("{\"a\": 1,\n \"a\": 2}".utf8))
        #expect(map.position(of: JSONPath.root.appending("a")) == SourcePosition(line: 2, column: 7, offset: 15))
    }

    /// `é` and `e` + U+0301 are two keys (`JSONObjectTests.keysAreTheirScalars`):
    /// each is placed where it is written, not where the other is.
    @Test func keysDifferingOnlyInNormalisationArePlacedApart() throws {
        let map = try JSONSourceMap(bytes: Array("{\"caf\u{E9}\": 1,\n \"cafe\u{301}\": 2}".utf8))
        #expect(map.exactPosition(of: JSONPath.root.appending("caf\u{E9}"))?.line == 1)
        #expect(map.exactPosition(of: JSONPath.root.appending("cafe\u{301}"))?.line == 2)
        #expect(JSONPath.root.appending("caf\u{E9}") != JSONPath.root.appending("cafe\u{301}"))
    }

    @Test func columnsCountCharactersNotBytes() throws {
        // "é" is two bytes, "😀" four: the value 1 is still the 8th character.
        let bytes = Array("{\"é😀\": 1}".utf8)
        let map = try JSONSourceMap(bytes: bytes)
        let position = map.position(of: JSONPath.root.appending("é😀"))
        #expect(position.column == 8)
        #expect(position.offset == 11)
        #expect(bytes[position.offset] == UInt8(ascii: "1"))
        #expect(SourcePosition(offset: position.offset, in: bytes) == position)
    }

    @Test func carriageReturnsDoNotStartLines() throws {
        let map = try JSONSourceMap(bytes: Array("{\r\n\"a\":\r\n  true}".utf8))
        #expect(map.position(of: JSONPath.root.appending("a")) == SourcePosition(line: 3, column: 3, offset: 11))
    }

    @Test func parseErrorsCountColumnsInCharactersToo() throws {
        let error = try #require(throws: JSONParseError.self) { try JSONParser().parse("{\"é\": tru}") }
        #expect(error.line == 1)
        #expect(error.column == 7)
        #expect(error.offset == 7)
        #expect(error.position == SourcePosition(line: 1, column: 7, offset: 7))
    }

    @Test func aTextThatIsNotJSONHasNoMap() {
        #expect(throws: JSONParseError.self) { try JSONSourceMap(bytes: Array("{\"a\": [}".utf8)) }
    }
}
