import Testing

@testable import AASAKit

/// A path's text, as diagnostics print it, written as bytes: keys that are
/// identifiers bare (after a dot, but for the first), any other key and
/// every index in brackets.
@Suite struct JSONPathDescriptionTests {
    @Test(arguments: [
        (JSONPath.root, "(root)"),
        (JSONPath([.key("links"), .index(42)]), "links[42]"),
        (JSONPath([.index(0), .key("appIDs"), .index(-1)]), "[0].appIDs[-1]"),
        (JSONPath([.key("applinks"), .key("_details-2"), .key("x")]), "applinks._details-2.x"),
        (
            JSONPath([.key("a b"), .key("9lives"), .key(""), .key("caf\u{E9}"), .key("q\"\\")]),
            #"["a b"]["9lives"][""]["café"]["q\"\\"]"#
        ),
    ])
    func theTextOfAPath(path: JSONPath, text: String) {
        #expect(path.description == text)
        var bytes = Array("x: ".utf8)
        path.appendDescription(to: &bytes)
        #expect(bytes == Array("x: \(text)".utf8))
    }
}
