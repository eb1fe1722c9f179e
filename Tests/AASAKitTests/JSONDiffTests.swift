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

    @Test func arraysCompareByIndex() throws {
        let diff = JSONDiff(from: try parse(#"["x","y"]"#), to: try parse(#"["y"]"#))
        #expect(
            diff.changes == [
                .init(path: JSONPath([.index(0)]), kind: .changed, old: "x", new: "y"),
                .init(path: JSONPath([.index(1)]), kind: .removed, old: "y", new: nil),
            ]
        )
        let grown = JSONDiff(from: try parse("[]"), to: try parse("[true]"))
        #expect(grown.changes == [.init(path: JSONPath([.index(0)]), kind: .added, old: nil, new: true)])
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
