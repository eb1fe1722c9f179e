import Testing

@testable import AASAKit

/// A rule's path is built when asked from its array's path and its index;
/// it must name the same place a path stored per rule named.
@Suite("Rule paths")
struct RulePathTests {
    static let file = """
        {"applinks":{"details":[
          {"appIDs":["ABCDE12345.a.one"],"components":[{"/":"/a"},"not an object",{"/":"/c","exclude":true}]},
          {"appID":"ABCDE12345.a.two","paths":["/x","NOT /y"]}
        ]}}
        """

    @Test func everyRuleNamesItsPlaceInTheFile() throws {
        let document = AASAFile(json: try JSONParser().parse(Self.file).value)
        let details = try #require(document.appLinks?.details)
        #expect(
            details.flatMap { $0.rules.map(\.path.description) } == [
                "applinks.details[0].components[0]",
                "applinks.details[0].components[1]",
                "applinks.details[0].components[2]",
                "applinks.details[1].paths[0]",
                "applinks.details[1].paths[1]",
            ]
        )
        // The same place, spelled as a path stored per rule spelled it.
        for detail in details {
            let array = detail.path.appending(detail.rulesSource == .paths ? "paths" : "components")
            #expect(detail.rules.map(\.path) == detail.rules.indices.map { array.appending($0) })
        }
    }

    @Test func aPathGivenOrSetIsKeptAsIs() {
        let given = JSONPath([.key("somewhere")])
        var rule = Rule(component: .object(JSONObject()), path: given, index: 7, defaults: JSONObject())
        #expect(rule.path == given)
        let legacy = Rule(legacyPath: .string("/x"), path: given, index: 3, defaults: JSONObject())
        #expect(legacy.path == given)
        rule.path = JSONPath([.key("elsewhere")])
        #expect(rule.path == JSONPath([.key("elsewhere")]))
    }

    /// A rule read from an array builds its path from its index; setting
    /// the index afterwards must not move the path (they were two stored
    /// properties to library users).
    @Test func settingTheIndexKeepsThePath() throws {
        let document = AASAFile(json: try JSONParser().parse(Self.file).value)
        var rule = try #require(document.appLinks?.details.first?.rules.last)
        #expect(rule.path.description == "applinks.details[0].components[2]")
        rule.index = 0
        #expect(rule.index == 0)
        #expect(rule.path.description == "applinks.details[0].components[2]")
    }
}
