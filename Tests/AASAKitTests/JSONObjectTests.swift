import AASAKit
import Testing

/// Objects are scanned up to a few members and indexed beyond: both must
/// behave as one ordered map.
@Suite("JSON object")
struct JSONObjectTests {
    @Test(arguments: [3, 40])
    func membersKeepTheirOrderAndLastWriteWins(count: Int) {
        var object = JSONObject((0..<count).map { ("k\($0)", JSONValue.number(Double($0))) })
        object["k1"] = "again"
        #expect(object.keys == (0..<count).map { "k\($0)" })
        #expect(object["k1"] == "again")
        #expect(object["k\(count - 1)"] == .number(Double(count - 1)))
        #expect(object["missing"] == nil)
        object["k0"] = nil
        #expect(object.count == count - 1)
        #expect(object["k0"] == nil)
        #expect(object["k\(count - 1)"] == .number(Double(count - 1)))
        object["k0"] = true
        #expect(object.keys.last == "k0")
        #expect(object["k0"] == true)
    }

    @Test(arguments: [3, 40])
    func equalityAndHashIgnoreOrder(count: Int) {
        let members = (0..<count).map { ("k\($0)", JSONValue.string("v\($0)")) }
        let forward = JSONObject(members)
        let backward = JSONObject(members.reversed())
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        var changed = backward
        changed["k0"] = "other"
        #expect(forward != changed)
        var fewer = backward
        fewer["k0"] = nil
        #expect(forward != fewer)
        #expect(fewer != forward)
    }

    /// Parsing a long object with a key written twice: the position of the
    /// first, the value of the last, and the duplicate reported.
    @Test func aLongObjectWithADuplicateKey() throws {
        let members = (0..<30).map { #""k\#($0)": \#($0)"# } + [#""k3": "last""#]
        let document = try JSONParser().parse("{\(members.joined(separator: ","))}")
        let object = try #require(document.value.objectValue)
        #expect(object.count == 30)
        #expect(object.keys[3] == "k3")
        #expect(object["k3"] == "last")
        #expect(document.duplicateKeys.map(\.description) == ["k3"])
    }

    /// `é` and `e` + U+0301 are one string to Swift's `==` and two keys to
    /// Foundation's parser and to Apple's matcher (a query item name): as
    /// one, `cdn-diff` passed copies differing only in that key, and two
    /// files differing only there shared one compile.
    @Test(arguments: [3, 40])
    func keysAreTheirScalars(count: Int) throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let others = (0..<count - 1).map { ("k\($0)", JSONValue.number(Double($0))) }
        let withComposed = JSONObject(others + [(composed, "x")])
        let withDecomposed = JSONObject(others + [(decomposed, "x")])
        #expect(withComposed[decomposed] == nil)
        #expect(withComposed[composed] == "x")
        #expect(withComposed != withDecomposed)
        #expect(!JSONDiff(from: .object(withComposed), to: .object(withDecomposed)).isEmpty)
        var both = withComposed
        both[decomposed] = "y"
        #expect(both.count == count + 1)
        #expect(both[composed] == "x")
        #expect(both[decomposed] == "y")
        let document = try JSONParser().parse(#"{"\#(composed)": 1, "\#(decomposed)": 2}"#)
        #expect(document.duplicateKeys.isEmpty)
        guard case .object(let parsed) = document.value else {
            Issue.record("not an object")
            return
        }
        #expect(parsed.keys == [composed, decomposed])
    }
}
