import Testing

@testable import AASAKit

/// docs/SEMANTICS.md §3.2 (`?`) and §3.3 (`#`).
@Suite struct QueryTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var component: String
        var url: String
        var matches: Bool
        var testDescription: String { "\(component) ~ \(url) → \(matches)" }
    }

    static let strings: [Case] = [
        .init(component: #"{"?": "a=1"}"#, url: "https://h/?a=1", matches: true),
        .init(component: #"{"?": "a=1"}"#, url: "https://h/?a=1&b=2", matches: false),
        .init(component: #"{"?": "a=1"}"#, url: "https://h/", matches: false),
        .init(component: #"{"?": "?*"}"#, url: "https://h/", matches: false),
        .init(component: #"{"?": "?*"}"#, url: "https://h/?", matches: false),
        .init(component: #"{"?": "?*"}"#, url: "https://h/?x", matches: true),
        .init(component: #"{"?": ""}"#, url: "https://h/", matches: true),
        .init(component: #"{"?": ""}"#, url: "https://h/?x", matches: false),
        .init(component: #"{"?": "*"}"#, url: "https://h/", matches: true),
        .init(component: #"{"?": "a=*"}"#, url: "https://h/?a=1&b=2", matches: true),
        .init(component: #"{"?": "q=a+b"}"#, url: "https://h/?q=a+b", matches: true),
        .init(component: #"{"?": "q=a b"}"#, url: "https://h/?q=a+b", matches: false),
    ]

    @Test(arguments: strings)
    func stringForm(_ c: Case) throws {
        #expect(try (MatcherFixture.decide(c.component, c.url) == .matched) == c.matches)
    }

    static let dictionaries: [Case] = [
        // 1. every listed name must match; others ignored
        .init(component: #"{"?": {"a": "1"}}"#, url: "https://h/?a=1&z=9", matches: true),
        .init(component: #"{"?": {"a": "1", "b": "2"}}"#, url: "https://h/?b=2&a=1", matches: true),
        .init(component: #"{"?": {"a": "1", "b": "2"}}"#, url: "https://h/?a=1", matches: false),
        // 2. missing or valueless reads as ""
        .init(component: #"{"?": {"b": "*"}}"#, url: "https://h/?a=1", matches: true),
        .init(component: #"{"?": {"b": "?*"}}"#, url: "https://h/?a=1", matches: false),
        .init(component: #"{"?": {"flag": ""}}"#, url: "https://h/?flag", matches: true),
        .init(component: #"{"?": {"flag": "?*"}}"#, url: "https://h/?flag", matches: false),
        .init(component: #"{"?": {"b": ""}}"#, url: "https://h/", matches: true),
        // 3. a repeated name must match in every occurrence; never joined
        .init(component: #"{"?": {"id": "42"}}"#, url: "https://h/?id=7&id=42", matches: false),
        .init(component: #"{"?": {"id": "42"}}"#, url: "https://h/?id=42&id=42", matches: true),
        .init(component: #"{"?": {"id": "4?"}}"#, url: "https://h/?id=41&id=42", matches: true),
        .init(component: #"{"?": {"id": "7,42"}}"#, url: "https://h/?id=7&id=42", matches: false),
        // 4. a non-string value: the whole dictionary is ignored
        .init(component: #"{"?": {"a": "1", "b": 2}}"#, url: "https://h/?a=zzz", matches: true),
        .init(component: #"{"?": {"a": null}}"#, url: "https://h/", matches: true),
        // 5. names exact even when caseSensitive is false; values fold
        .init(component: #"{"?": {"Ref": "x"}, "caseSensitive": false}"#, url: "https://h/?ref=x", matches: false),
        .init(component: #"{"?": {"ref": "abc"}, "caseSensitive": false}"#, url: "https://h/?ref=ABC", matches: true),
        .init(component: #"{"?": {"ref": "abc"}}"#, url: "https://h/?ref=ABC", matches: false),
        // 6. split on & and the first =; + is not a space
        .init(component: #"{"?": {"a": "b=c"}}"#, url: "https://h/?a=b=c", matches: true),
        .init(component: #"{"?": {"q": "a+b"}}"#, url: "https://h/?q=a+b", matches: true),
        .init(component: #"{"?": {"q": "a b"}, "percentEncoded": false}"#, url: "https://h/?q=a+b", matches: false),
        .init(component: #"{"?": {"q": "a b"}, "percentEncoded": false}"#, url: "https://h/?q=a%20b", matches: true),
        .init(component: #"{"?": {"a&b": "1"}}"#, url: "https://h/?a&b=1", matches: false),
    ]

    @Test(arguments: dictionaries)
    func dictionaryForm(_ c: Case) throws {
        #expect(try (MatcherFixture.decide(c.component, c.url) == .matched) == c.matches)
    }

    @Test func wrongTypeQueryBehavesAsAbsent() throws {
        #expect(try MatcherFixture.decide(#"{"/": "/a", "?": 5}"#, "https://h/a?x=1") == .matched)
        #expect(try MatcherFixture.decide(#"{"/": "/a", "?": ["x"]}"#, "https://h/a?x=1") == .matched)
    }

    @Test func variablesInValuesNotNames() throws {
        let variables = #"{"id": ["1", "2"]}"#
        #expect(
            try MatcherFixture.decide(#"{"?": {"p": "$(id)"}}"#, "https://h/?p=2", variables: variables) == .matched
        )
        #expect(try MatcherFixture.decide(#"{"?": {"p": "$(id)"}}"#, "https://h/?p=3", variables: variables) == .none)
        #expect(try MatcherFixture.decide(#"{"?": "p=$(id)"}"#, "https://h/?p=1", variables: variables) == .matched)
        // The name is literal: `$(id)=x` only matches an item literally named so.
        #expect(try MatcherFixture.decide(#"{"?": {"$(id)": "x"}}"#, "https://h/?1=x", variables: variables) == .none)
        #expect(
            try MatcherFixture.decide(#"{"?": {"$(id)": "x"}}"#, "https://h/?$(id)=x", variables: variables) == .matched
        )
    }

    static let fragments: [Case] = [
        .init(component: ##"{"#": "promo"}"##, url: "https://h/any/path#promo", matches: true),
        .init(component: ##"{"#": "promo"}"##, url: "https://h/#promo2", matches: false),
        .init(component: ##"{"#": "promo"}"##, url: "https://h/", matches: false),
        .init(component: ##"{"#": ""}"##, url: "https://h/", matches: true),
        .init(component: ##"{"#": ""}"##, url: "https://h/#", matches: true),
        .init(component: ##"{"#": "?*"}"##, url: "https://h/", matches: false),
        .init(component: ##"{"#": "a*"}"##, url: "https://h/#a/b/c", matches: true),
        .init(component: ##"{"#": "*"}"##, url: "https://h/", matches: true),
        .init(component: ##"{"#": 5}"##, url: "https://h/#x", matches: true),  // wrong type: absent
    ]

    @Test(arguments: fragments)
    func fragment(_ c: Case) throws {
        #expect(try (MatcherFixture.decide(c.component, c.url) == .matched) == c.matches)
    }
}
