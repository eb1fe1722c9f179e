import AASAKit
import Testing

@Suite struct JSONDiffTests {
    private func parse(_ text: String) throws -> JSONValue {
        try JSONParser().parse(text).value
    }

    @Test func keyOrderAndWhitespaceAreIgnored() throws {
        let origin = try parse(
            #"{"applinks": {"details": [{"appIDs": ["A.b"], "components": [{"/": "/x/*"}]}]}, "webcredentials": {"apps": []}}"#
        )
        let cdn = try parse(
            #"{"webcredentials":{"apps":[]},"applinks":{"details":[{"components":[{"/":"/x/*"}],"appIDs":["A.b"]}]}}"#
        )
        #expect(JSONDiff(from: origin, to: cdn).isEmpty)
    }

    @Test func numbersCompareByValue() throws {
        #expect(JSONDiff(from: try parse("[1, 2.50]"), to: try parse("[1.0, 2.5]")).isEmpty)
    }

    @Test func reportsChangedValueByPath() throws {
        let old = try parse(#"{"applinks":{"details":[{"components":[{"/":"/a"},{"/":"/b"}]}]}}"#)
        let new = try parse(#"{"applinks":{"details":[{"components":[{"/":"/a"},{"/":"/c"}]}]}}"#)
        let diff = JSONDiff(from: old, to: new)
        #expect(diff.changes.count == 1)
        let change = try #require(diff.changes.first)
        #expect(change.path.description == #"applinks.details[0].components[1]["/"]"#)
        #expect(change.kind == .changed)
        #expect(change.old == "/b")
        #expect(change.new == "/c")
        #expect(change.description == #"~ applinks.details[0].components[1]["/"]: "/b" -> "/c""#)
    }

    @Test func reportsAddedAndRemovedKeys() throws {
        let diff = JSONDiff(from: try parse(#"{"a":1,"b":2}"#), to: try parse(#"{"b":2,"c":3}"#))
        #expect(
            diff.changes == [
                .init(path: JSONPath([.key("a")]), kind: .removed, old: 1, new: nil),
                .init(path: JSONPath([.key("c")]), kind: .added, old: nil, new: 3),
            ]
        )
    }

    @Test func arraysAreAlignedNotComparedByIndex() throws {
        let diff = JSONDiff(from: try parse(#"["x","y"]"#), to: try parse(#"["y"]"#))
        #expect(diff.changes == [.init(path: JSONPath([.index(0)]), kind: .removed, old: "x", new: nil)])
        let grown = JSONDiff(from: try parse("[]"), to: try parse("[true]"))
        #expect(grown.changes == [.init(path: JSONPath([.index(0)]), kind: .added, old: nil, new: true)])
    }

    /// The case that made positional diffs useless: one rule removed from the
    /// middle of ten used to show up as nine changes and one removal.
    @Test func removingOneRuleOfTenIsOneRemoval() throws {
        let rules = (0..<10).map { #"{"/":"/r\#($0)/*"}"# }
        let old = try parse(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":["# + rules.joined(separator: ",") + "]}]}}"
        )
        var fewer = rules
        fewer.remove(at: 3)
        let new = try parse(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":["# + fewer.joined(separator: ",") + "]}]}}"
        )
        let diff = JSONDiff(from: old, to: new)
        #expect(diff.changes.count == 1)
        #expect(diff.changes.first?.description == #"- applinks.details[0].components[3]: {"/":"/r3/*"}"#)
        // And the other way round: one addition at its index in the new array.
        let back = JSONDiff(from: new, to: old)
        #expect(back.changes.map(\.description) == [#"+ applinks.details[0].components[3]: {"/":"/r3/*"}"#])
    }

    @Test func editedElementBetweenEqualOnesIsDiffedInside() throws {
        let old = try parse(#"[{"/":"/a"},{"/":"/b","exclude":true},{"/":"/c"},{"/":"/d"}]"#)
        let new = try parse(#"[{"/":"/a"},{"/":"/b"},{"/":"/d"}]"#)
        #expect(
            JSONDiff(from: old, to: new).changes.map(\.description) == [
                "- [1].exclude: true", #"- [2]: {"/":"/c"}"#,
            ]
        )
    }

    @Test func movedRuleIsARemovalAndAnAddition() throws {
        let diff = JSONDiff(from: try parse(#"["a","b","c","d"]"#), to: try parse(#"["b","c","d","a"]"#))
        #expect(diff.changes.map(\.description) == [#"- [0]: "a""#, #"+ [3]: "a""#])
    }

    @Test func appIDsAreAlignedToo() throws {
        let old = try parse(#"{"appIDs":["T.one","T.two","T.three"]}"#)
        let new = try parse(#"{"appIDs":["T.one","T.three","T.four"]}"#)
        #expect(
            JSONDiff(from: old, to: new).changes.map(\.description) == [
                #"- appIDs[1]: "T.two""#, #"+ appIDs[2]: "T.four""#,
            ]
        )
    }

    @Test func hugeArraysDifferingAtBothEndsFallBackToPositions() throws {
        // 2,500 × 2,500 elements after trimming is past the alignment table's
        // bound: pairing by position is still a correct diff.
        let count = 2_501
        let old = JSONValue.array((0..<count).map { .number(Double($0)) })
        var newElements = (0..<count).map { JSONValue.number(Double($0)) }
        newElements[0] = "first"
        newElements[count - 1] = "last"
        let diff = JSONDiff(from: old, to: .array(newElements))
        #expect(diff.changes.map(\.kind) == [.changed, .changed])
        #expect(diff.changes.map(\.path) == [JSONPath([.index(0)]), JSONPath([.index(count - 1)])])
    }

    @Test func typeChangeIsOneChange() throws {
        let diff = JSONDiff(from: try parse(#"{"apps":[]}"#), to: try parse(#"{"apps":{}}"#))
        #expect(diff.changes.map(\.kind) == [.changed])
        #expect(diff.changes.first?.path.description == "apps")
    }

    @Test func rootScalarChange() throws {
        let diff = JSONDiff(from: try parse("1"), to: try parse("\"1\""))
        #expect(diff.changes.first?.path == .root)
        #expect(diff.changes.first?.json == ["path": "(root)", "kind": "changed", "old": 1, "new": "1"])
    }
}
