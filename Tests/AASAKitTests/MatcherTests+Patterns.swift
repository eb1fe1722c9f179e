import Testing

@testable import AASAKit

/// docs/SEMANTICS.md §3: wildcards, literals, anchoring; §3.1 normalisation.
@Suite struct PatternTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var pattern: String
        var path: String
        var matches: Bool
        var testDescription: String { "\(pattern) ~ \(path) → \(matches)" }
    }

    static let wildcards: [Case] = [
        // `*`: zero or more, crosses `/`.
        .init(pattern: "/a/*", path: "/a/b/c/d", matches: true),
        .init(pattern: "/a*z", path: "/a/b/z", matches: true),
        .init(pattern: "/a*z", path: "/az", matches: true),
        // `?`: exactly one character.
        .init(pattern: "/a?c", path: "/abc", matches: true),
        .init(pattern: "/a?c", path: "/ac", matches: false),
        .init(pattern: "/a?c", path: "/abbc", matches: false),
        .init(pattern: "/a?c", path: "/a/c", matches: true),
        // `?*` and `*?`: one or more.
        .init(pattern: "/p/?*", path: "/p/", matches: false),  // a trailing `*` stops the appended "/"
        .init(pattern: "/p/?*", path: "/p/x", matches: true),
        .init(pattern: "/p/?*/x", path: "/p//x", matches: false),
        .init(pattern: "/p/?*/x", path: "/p/1/x", matches: true),
        .init(pattern: "/p/*?/x", path: "/p/x", matches: false),
        .init(pattern: "/p/*?/x", path: "/p/12/x", matches: true),
        // Everything else is literal: no regex.
        .init(pattern: "/a.c", path: "/abc", matches: false),
        .init(pattern: "/a.c", path: "/a.c", matches: true),
        .init(pattern: "/a+", path: "/aa", matches: false),
        .init(pattern: "/a+", path: "/a+", matches: true),
        .init(pattern: "/(x)", path: "/(x)", matches: true),
        .init(pattern: "/[ab]", path: "/a", matches: false),
        .init(pattern: "/[ab]", path: "/[ab]", matches: true),
        .init(pattern: "/^a", path: "/a", matches: false),
        // Backslash (*open*): literal.
        .init(pattern: #"/a\*"#, path: "/a", matches: false),
        // Consecutive `*` collapse.
        .init(pattern: "/a/***", path: "/a/b", matches: true),
        .init(pattern: "/a**b", path: "/ab", matches: true),
        // Anchored at both ends.
        .init(pattern: "/buy", path: "/buy/now", matches: false),
        .init(pattern: "/buy", path: "/x/buy", matches: false),
        .init(pattern: "/buy/*", path: "/rebuy/1", matches: false),
        // The pattern `*` matches anything.
        .init(pattern: "*", path: "/anything/at/all", matches: true),
        .init(pattern: "*", path: "", matches: true),
        // `""` normalises to "/": only the empty/root path.
        .init(pattern: "", path: "", matches: true),
        .init(pattern: "", path: "/", matches: true),
        .init(pattern: "", path: "/a", matches: false),
    ]

    @Test(arguments: wildcards)
    func wildcard(_ c: Case) throws {
        #expect(try MatcherFixture.pathMatches(c.pattern, c.path) == c.matches)
    }

    /// §3.1 consequences, each bullet.
    static let consequences: [Case] = [
        // trailing slash is insignificant
        .init(pattern: "/buy", path: "/buy", matches: true),
        .init(pattern: "/buy", path: "/buy/", matches: true),
        .init(pattern: "/buy", path: "/buy//", matches: true),
        .init(pattern: "/buy/", path: "/buy", matches: true),
        .init(pattern: "/buy//", path: "/buy", matches: true),
        // `/buy/*` also matches `/buy` itself
        .init(pattern: "/buy/*", path: "/buy", matches: true),
        .init(pattern: "/buy/*", path: "/buy/42", matches: true),
        // leading slash optional in patterns
        .init(pattern: "buy/*", path: "/buy/42", matches: true),
        // `/id/????`
        .init(pattern: "/id/????", path: "/id/4815", matches: true),
        .init(pattern: "/id/????", path: "/id/481", matches: false),
        .init(pattern: "/id/????", path: "/id/48151", matches: false),
        // `/a/*/c` does not match `/a/c`
        .init(pattern: "/a/*/c", path: "/a/c", matches: false),
        .init(pattern: "/a/*/c", path: "/a/b/c", matches: true),
        // `/` matches both `https://h` and `https://h/`
        .init(pattern: "/", path: "", matches: true),
        .init(pattern: "/", path: "/", matches: true),
        .init(pattern: "/", path: "/a", matches: false),
        // `/buy*` matches `/buy` and `/buyer`
        .init(pattern: "/buy*", path: "/buy", matches: true),
        .init(pattern: "/buy*", path: "/buyer", matches: true),
        // "//" collapses in URL paths too
        .init(pattern: "/a/b", path: "/a//b", matches: true),
    ]

    @Test(arguments: consequences)
    func normalisationConsequence(_ c: Case) throws {
        #expect(try MatcherFixture.pathMatches(c.pattern, c.path) == c.matches)
    }

    @Test(arguments: [
        ("", "/"), ("/", "/"), ("*", "*"), ("/buy", "/buy/"), ("/buy/", "/buy/"), ("/buy//", "/buy/"),
        ("buy/*", "/buy/*"), ("/buy*", "/buy*"), ("*buy", "*buy/"), ("**/a//b**", "*/a/b*"), ("/id/????", "/id/????/"),
        ("**", "*/"), ("a", "a"),
    ])
    func normalise(_ input: String, _ expected: String) {
        #expect(PathNormalization.normalize(input) == expected)
    }

    @Test func normalisationIsNotAppliedToQueryOrFragment() throws {
        #expect(try MatcherFixture.decide(#"{"?": "a"}"#, "https://h/?a/") == .none)
        #expect(try MatcherFixture.decide(##"{"#": "a"}"##, "https://h/#a/") == .none)
        #expect(try MatcherFixture.decide(##"{"#": "a//b"}"##, "https://h/#a//b") == .matched)
    }
}
