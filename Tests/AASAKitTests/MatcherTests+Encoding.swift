import Testing

@testable import AASAKit

/// docs/SEMANTICS.md §3.4 (`caseSensitive`) and §3.5 (`percentEncoded`).
@Suite struct CaseAndEncodingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var component: String
        var url: String
        var decision: MatchDecision
        var testDescription: String { "\(component) ~ \(url) → \(decision)" }
    }

    static let caseSensitivity: [Case] = [
        .init(component: #"{"/": "/Buy"}"#, url: "https://h/buy", decision: .none),
        .init(component: #"{"/": "/Buy", "caseSensitive": false}"#, url: "https://h/buy", decision: .matched),
        .init(component: #"{"/": "/buy", "caseSensitive": false}"#, url: "https://h/BUY/", decision: .matched),
        .init(component: #"{"?": "A=1", "caseSensitive": false}"#, url: "https://h/?a=1", decision: .matched),
        .init(component: ##"{"#": "Top", "caseSensitive": false}"##, url: "https://h/#tOP", decision: .matched),
        // Non-ASCII folds one scalar at a time (decoded, so the URL's É is a scalar).
        .init(
            component: #"{"/": "/CAFÉ", "caseSensitive": false, "percentEncoded": false}"#,
            url: "https://h/caf%C3%A9",
            decision: .matched
        ),
        .init(
            component: #"{"/": "/ΣΟΦΊΑ", "caseSensitive": false, "percentEncoded": false}"#,
            url: "https://h/σοφία",
            decision: .matched
        ),
        .init(component: #"{"/": "/CAFÉ", "percentEncoded": false}"#, url: "https://h/caf%C3%A9", decision: .none),
        // Encoded text folds only its hex digits: %C3%89 (É) vs %C3%A9 (é) differ.
        .init(component: #"{"/": "/caf%C3%89", "caseSensitive": false}"#, url: "https://h/café", decision: .none),
        .init(component: #"{"/": "/caf%c3%a9", "caseSensitive": false}"#, url: "https://h/café", decision: .matched),
        .init(component: #"{"/": "/caf%c3%a9"}"#, url: "https://h/café", decision: .none),
        // Variables and built-ins fold too.
        .init(component: #"{"/": "/$(upper)", "caseSensitive": false}"#, url: "https://h/q", decision: .matched),
        .init(component: #"{"/": "/$(upper)"}"#, url: "https://h/q", decision: .none),
        .init(component: #"{"/": "/$(lower)", "caseSensitive": false}"#, url: "https://h/Q", decision: .matched),
        .init(component: #"{"/": "/$(region)", "caseSensitive": false}"#, url: "https://h/gb", decision: .matched),
        .init(component: #"{"/": "/$(region)"}"#, url: "https://h/gb", decision: .none),
    ]

    @Test(arguments: caseSensitivity)
    func caseSensitive(_ c: Case) throws {
        #expect(try MatcherFixture.decide(c.component, c.url) == c.decision)
    }

    @Test func caseFoldingOfUserVariableValues() throws {
        let variables = #"{"food": ["Pizza", "Sushi"]}"#
        #expect(
            try MatcherFixture.decide(
                #"{"/": "/$(food)", "caseSensitive": false}"#,
                "https://h/PIZZA",
                variables: variables
            ) == .matched
        )
        #expect(try MatcherFixture.decide(#"{"/": "/$(food)"}"#, "https://h/PIZZA", variables: variables) == .none)
    }

    static let percentEncoding: [Case] = [
        // true (default): compared as encoded, pattern as written.
        .init(component: #"{"/": "/café"}"#, url: "https://h/caf%C3%A9", decision: .none),
        .init(component: #"{"/": "/caf%C3%A9"}"#, url: "https://h/café", decision: .matched),
        .init(component: #"{"/": "/caf%c3%a9"}"#, url: "https://h/caf%C3%A9", decision: .none),  // hex case matters
        .init(component: #"{"/": "/a/b"}"#, url: "https://h/a%2Fb", decision: .none),  // %2F is no separator
        .init(component: #"{"/": "/a%2Fb"}"#, url: "https://h/a%2Fb", decision: .matched),
        .init(component: #"{"/": "/a%20b"}"#, url: "https://h/a b", decision: .matched),
        // false: the URL is decoded, the pattern used as written.
        .init(component: #"{"/": "/café", "percentEncoded": false}"#, url: "https://h/caf%C3%A9", decision: .matched),
        .init(component: #"{"/": "/a b", "percentEncoded": false}"#, url: "https://h/a%20b", decision: .matched),
        .init(component: #"{"/": "/a/b", "percentEncoded": false}"#, url: "https://h/a%2Fb", decision: .matched),
        .init(component: #"{"/": "/a%20b", "percentEncoded": false}"#, url: "https://h/a%20b", decision: .none),
        .init(component: #"{"?": "q=é", "percentEncoded": false}"#, url: "https://h/?q=%C3%A9", decision: .matched),
        .init(component: #"{"?": "q=%C3%A9"}"#, url: "https://h/?q=é", decision: .matched),
        // Invalid escapes under false: undecodable, no match (*open*).
        .init(component: #"{"/": "*zz", "percentEncoded": false}"#, url: "https://h/%zz", decision: .none),
        .init(component: #"{"/": "/%zz"}"#, url: "https://h/%zz", decision: .matched),
        // Bytes that are not UTF-8 are undecodable too.
        .init(component: #"{"/": "/?", "percentEncoded": false}"#, url: "https://h/%FF", decision: .none),
        // No Unicode normalisation: NFC ≠ NFD.
        .init(
            component: #"{"/": "/cafe\u0301", "percentEncoded": false}"#,
            url: "https://h/caf%C3%A9",
            decision: .none
        ),
        // `?` is one scalar decoded, one character encoded.
        .init(component: #"{"/": "/caf?", "percentEncoded": false}"#, url: "https://h/caf%C3%A9", decision: .matched),
        .init(component: #"{"/": "/caf?"}"#, url: "https://h/caf%C3%A9", decision: .none),
        .init(component: #"{"/": "/caf??????"}"#, url: "https://h/caf%C3%A9", decision: .matched),
    ]

    @Test(arguments: percentEncoding)
    func percentEncoded(_ c: Case) throws {
        #expect(try MatcherFixture.decide(c.component, c.url) == c.decision)
    }

    @Test func undecodableComponentIsExplained() throws {
        let file = try MatcherFixture.file(
            components: ##"[{"#": "*", "/": "/x", "percentEncoded": false}, {"#": "a", "percentEncoded": false}]"##
        )
        let result = try MatcherFixture.evaluate(file, "https://h/y#%zz")
        #expect(result.decision == .none)
        #expect(result.reason.contains("fragment has an invalid percent-escape"))
        #expect(result.notes.count == 1)
    }

    /// The Lieferando-style links: humans type Unicode, the system sees escapes.
    @Test(arguments: [
        (##"{"#": "stempelkarten"}"##, "https://lieferando.de/#stempelkarten", MatchDecision.matched),
        (##"{"/": "/fr", "#": "cartes-épargne"}"##, "https://lieferando.de/fr#cartes-épargne", .none),
        (##"{"/": "/fr", "#": "cartes-%C3%A9pargne"}"##, "https://lieferando.de/fr#cartes-épargne", .matched),
        (
            ##"{"/": "/fr", "#": "cartes-épargne", "percentEncoded": false}"##,
            "https://lieferando.de/fr#cartes-épargne", .matched
        ),
        (
            ##"{"/": "/fr", "#": "cartes-épargne", "percentEncoded": false}"##,
            "https://lieferando.de/fr#cartes-%C3%A9pargne", .matched
        ),
        (
            ##"{"/": "/fr", "#": "CARTES-ÉPARGNE", "percentEncoded": false, "caseSensitive": false}"##,
            "https://lieferando.de/fr/#cartes-épargne", .matched
        ),
    ])
    func lieferando(_ component: String, _ url: String, _ decision: MatchDecision) throws {
        #expect(try MatcherFixture.decide(component, url) == decision)
    }
}
