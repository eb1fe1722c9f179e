import Foundation
import Testing

@testable import AASAKit

/// Rules of docs/SEMANTICS.md that no other suite pinned: each test is cited
/// there beside the rule it proves.
@Suite struct SemanticsDocTests {
    /// §2: `exclude` is read like the two flags: a number is true when it is
    /// not zero, the string "true" is true, anything else is false.
    @Test(arguments: [
        ("true", MatchDecision.blocked), ("1", .blocked), (#""true""#, .blocked), ("0", .matched),
        (#""false""#, .matched), (#""yes""#, .matched), ("null", .matched), ("[]", .matched),
    ])
    func excludeIsReadLikeTheFlags(_ value: String, _ decision: MatchDecision) throws {
        #expect(try MatcherFixture.decide(#"{"/": "/a", "exclude": \#(value)}"#, "https://h/a") == decision)
    }

    /// §5: a variable name is everything between `$(` and the first `)`, so
    /// spaces, dots and dashes are part of it; a `$` without `(` is literal.
    @Test func variableNamesHoldAnyCharacterButParentheses() throws {
        let variables = #"{"my var.v-1": ["x", "y"]}"#
        #expect(try MatcherFixture.decide(#"{"/": "/$(my var.v-1)"}"#, "https://h/y", variables: variables) == .matched)
        #expect(try MatcherFixture.decide(#"{"/": "/$(my var.v-1)"}"#, "https://h/z", variables: variables) == .none)
        #expect(try MatcherFixture.pathMatches("/a$b", "/a$b"))
        #expect(try MatcherFixture.pathMatches("/$", "/$"))
    }

    /// §5: the built-in `$(digit)` (not shadowed by a user variable) is one
    /// character 0-9, never two.
    @Test(arguments: [("/7", true), ("/0", true), ("/a", false), ("/12", false), ("/", false)])
    func builtinDigitIsExactlyOneDigit(_ path: String, _ matches: Bool) throws {
        #expect(try MatcherFixture.pathMatches("/$(digit)", path) == matches)
    }

    /// §5: variables work in every pattern: the path, the query string, a
    /// query item's value and the fragment.
    @Test(arguments: [
        (#"{"/": "/$(food)"}"#, "https://h/pizza"),
        (#"{"?": "dish=$(food)"}"#, "https://h/?dish=sushi"),
        (#"{"?": {"dish": "$(food)"}}"#, "https://h/?dish=pizza&x=1"),
        (##"{"#": "$(food)"}"##, "https://h/#sushi"),
    ])
    func variablesWorkInEveryPattern(_ component: String, _ url: String) throws {
        let variables = #"{"food": ["pizza", "sushi"]}"#
        #expect(try MatcherFixture.decide(component, url, variables: variables) == .matched)
        let other = url.replacingOccurrences(of: "pizza", with: "ramen").replacingOccurrences(
            of: "sushi",
            with: "ramen"
        )
        #expect(try MatcherFixture.decide(component, other, variables: variables) == .none)
    }

    /// §1: an app whose entry has an empty `components` array matches no URL,
    /// even though the same entry's `paths` would.
    @Test func emptyComponentsMatchNothing() throws {
        let file = try MatcherFixture.parse(
            #"{"applinks": {"details": [{"appIDs": ["\#(MatcherFixture.appID)"], "components": [], "paths": ["*"]}]}}"#
        )
        let result = try MatcherFixture.evaluate(file, "https://h/anything")
        #expect(result.decision == .none)
        #expect(result.reason == "no rule matched")
    }
}
