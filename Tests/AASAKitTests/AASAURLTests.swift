import Testing

@testable import AASAKit

/// URLs typed by humans, encoded the way a URL parser does (§3.5).
@Suite struct AASAURLTests {
    @Test(arguments: [
        ("https://lieferando.de/#stempelkarten", "https://lieferando.de/#stempelkarten"),
        ("https://lieferando.de/fr#cartes-épargne", "https://lieferando.de/fr#cartes-%C3%A9pargne"),
        ("https://h/café?q=thé#ü", "https://h/caf%C3%A9?q=th%C3%A9#%C3%BC"),
        ("https://h/a b?c d#e f", "https://h/a%20b?c%20d#e%20f"),
        ("https://h/a%2fb?x=%41", "https://h/a%2fb?x=%41"),  // existing escapes kept as written
        ("https://h/100%", "https://h/100%"),  // a lone % is kept
        ("https://h/?q=a+b", "https://h/?q=a+b"),  // + kept
        ("HTTPS://Example.COM/Path", "https://example.com/Path"),  // scheme and host lowercased, path not
        ("https://h:443/x", "https://h/x"),  // default port dropped
        ("http://h:80/x", "http://h/x"),
        ("https://h:8443/x", "https://h:8443/x"),
        ("https://user:pw@h/x", "https://h/x"),  // user info dropped
        ("https://h", "https://h"),  // no path: ""
        ("https://h?x", "https://h?x"),
        ("https://h/a/./b/../c", "https://h/a/c"),  // dot segments resolved
        ("https://h/a/%2E%2E/b", "https://h/b"),
        ("https://h/a/..", "https://h/"),
        (#"https:\\h\a\b"#, "https://h/a/b"),  // backslashes count as slashes
        ("  https://h/x\t\n  ", "https://h/x"),  // trimmed, tabs and newlines removed
        ("https://h/\"<>`{}^", "https://h/%22%3C%3E%60%7B%7D%5E"),
        ("https://h/?'\"<>`", "https://h/?%27%22%3C%3E`"),
        ("https://h/#`'{}", "https://h/#%60'{}"),
        ("https://h/?a#b?c#d", "https://h/?a#b?c#d"),
        ("https://h/\u{7F}", "https://h/%7F"),
        ("https://[::1]:8080/x", "https://[::1]:8080/x"),
        ("https:///x", "https://x"),  // extra slashes before the host are skipped
    ])
    func encodes(_ input: String, _ expected: String) throws {
        #expect(try AASAURL(input).description == expected)
    }

    @Test func components() throws {
        let url = try AASAURL("https://Example.com:8443/fr/x?y=é#cartes-épargne")
        #expect(url.scheme == "https")
        #expect(url.host == "example.com")
        #expect(url.port == 8443)
        #expect(url.path == "/fr/x")
        #expect(url.query == "y=%C3%A9")
        #expect(url.fragment == "cartes-%C3%A9pargne")
    }

    @Test func absentVersusEmpty() throws {
        let bare = try AASAURL("https://h")
        #expect(bare.path == "" && bare.query == nil && bare.fragment == nil)
        let empty = try AASAURL("https://h/?#")
        #expect(empty.path == "/" && empty.query == "" && empty.fragment == "")
    }

    @Test(arguments: [
        ("ftp://h/x", "unsupported scheme ftp"),
        ("mailto:a@b", "unsupported scheme mailto"),
        ("example.com/path", "not a URL: example.com/path"),
        ("/just/a/path", "not a URL: /just/a/path"),
        ("https://", "not a URL: https://"),
        ("https://?x", "not a URL: https://?x"),
        ("https://h:99999/", "invalid port 99999"),
        ("https://h:x/", "invalid port x"),
        ("https://a b/", "invalid host a b"),
    ])
    func rejects(_ input: String, _ message: String) {
        #expect {
            _ = try AASAURL(input)
        } throws: { error in
            (error as? AASAURLError)?.description == message
        }
    }

    @Test func equalURLsHashEqually() throws {
        #expect(try AASAURL("https://H/a b") == AASAURL("https://h/a%20b"))
        #expect(try Set([AASAURL("https://h/x"), AASAURL("https://h:443/x")]).count == 1)
    }

    @Test(
        arguments: [
            ("%41%42", "AB"), ("%C3%A9", "é"), ("a+b", "a+b"), ("%zz", nil), ("%4", nil), ("%", nil), ("%FF", nil),
        ] as [(String, String?)]
    )
    func percentDecoding(_ input: String, _ expected: String?) {
        #expect(PercentEncoding.decode(Substring(input)) == expected)
    }
}
