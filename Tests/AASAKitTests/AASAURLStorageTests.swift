import Testing

@testable import AASAKit

/// ``AASAURL`` keeps its path, query and fragment as ranges of one string:
/// the public components, equality, hashing and the description must be
/// what they were when each component was a string of its own.
@Suite struct AASAURLStorageTests {
    static let urls = [
        "https://h", "https://h/", "https://h?", "https://h#", "https://h/?#", "https://h/a?b#c", "https://h/a#b?c#d",
        "https://h/a?b?c#", "https://h?q#f", "https://H:8443/A%2Fb?x=%zz#%C3%A9", "https://h/café?é#é",
        #"https:\\h\a\b?c\d#e\f"#, "http://h:80/x?", "https://[::1]:8080/x#", "https://xn--bcher-kva.example/a",
        "https://bücher.example/a", "https://h/a/../b?c#d",
    ]

    @Test(arguments: urls)
    func parsedURLsReadAsTheirComponents(_ text: String) throws {
        let url = try AASAURL(text)
        let parts = ReferenceURL(components: url)
        #expect(url.description == parts.description)
        let rebuilt = parts.url
        #expect(rebuilt == url && rebuilt.hashValue == url.hashValue)
        #expect(ReferenceURL(components: rebuilt) == parts && rebuilt.description == url.description)
    }

    /// Absent and empty stay apart: `?` with nothing after it is an empty
    /// query, no `?` is none; the same for `#`.
    @Test func absentAndEmptyComponentsDiffer() throws {
        let spellings = ["https://h/a", "https://h/a?", "https://h/a#", "https://h/a?#"]
        let urls = try spellings.map { try AASAURL($0) }
        #expect(Set(urls).count == spellings.count)
        #expect(urls.map(\.query) == [nil, "", nil, ""])
        #expect(urls.map(\.fragment) == [nil, nil, "", ""])
        #expect(urls.map(\.description) == spellings)
    }

    /// A `?` in the fragment or a `#` in the fragment is the fragment's:
    /// the components come from the marks, not from searching the string.
    @Test func marksInsideTheFragmentStayInIt() throws {
        let url = try AASAURL("https://h/p#a?b#c")
        #expect(url.path == "/p" && url.query == nil && url.fragment == "a?b#c")
        let other = try AASAURL("https://h/p?a#b")
        #expect(url != other)
    }

    @Test func settingAComponentKeepsTheOthers() throws {
        var url = try AASAURL("https://h:8443/a?b#c")
        url.path = "/x/y"
        #expect(ReferenceURL(components: url) == ReferenceURL(components: try AASAURL("https://h:8443/x/y?b#c")))
        url.query = nil
        #expect(url.description == "https://h:8443/x/y#c")
        url.fragment = "f?g"
        url.query = ""
        #expect(url.path == "/x/y" && url.query == "" && url.fragment == "f?g")
        #expect(url.description == "https://h:8443/x/y?#f?g")
        url.fragment = nil
        #expect(url == (try AASAURL("https://h:8443/x/y?")))
    }

    /// Equality is by bytes, not by canonical equivalence: the matcher
    /// compares scalars, so a precomposed and a decomposed `é` are two URLs.
    @Test func equalityIsByBytes() {
        let composed = AASAURL(scheme: "https", host: "h", path: "/\u{E9}", query: "q")
        let decomposed = AASAURL(scheme: "https", host: "h", path: "/e\u{301}", query: "q")
        #expect(composed != decomposed && Set([composed, decomposed]).count == 2)
        let again = AASAURL(scheme: "https", host: "h", path: "/\u{E9}", query: "q")
        #expect(composed == again && composed.hashValue == again.hashValue)
        #expect(composed != AASAURL(scheme: "https", host: "\u{E9}", path: "/\u{E9}", query: "q"))
        #expect(composed != AASAURL(scheme: "https", host: "h", path: "/\u{E9}q"))
        #expect(composed != AASAURL(scheme: "https", host: "h", path: "/\u{E9}", fragment: "q"))
    }

    /// Two URLs that are `==` get the same verdict from every matcher, and
    /// hash alike: the spellings differ by canonical equivalence in each
    /// component, where a string comparison called them equal while the
    /// matcher (by scalars) decided them apart.
    @Test func equalURLsGetTheSameVerdict() throws {
        let nfc = "\u{E9}"
        let nfd = "e\u{301}"
        var urls: [AASAURL] = []
        for host in ["h", "\(nfc).example", "\(nfd).example"] {
            for form in [nfc, nfd] {
                urls.append(AASAURL(scheme: "https", host: host, path: "/\(form)"))
                urls.append(AASAURL(scheme: "https", host: host, path: "/p", query: "\(form)=1"))
                urls.append(AASAURL(scheme: "https", host: host, path: "/p", fragment: form))
            }
        }
        let file = try MatcherFixture.file(
            components: ##"[{"/": "/\##u{E9}"}, {"?": {"\##u{E9}": "1"}}, {"#": "\##u{E9}"}]"##
        )
        let matchers = [AASAMatcher(file: file), AASAMatcher(file: file, domain: "\(nfc).example")]
        let verdicts = urls.map { url in
            matchers.map { matcher in
                let result = matcher.evaluate(url, appID: MatcherFixture.appID)
                return "\(result.decision) \(result.reason)"
            }
        }
        for (left, url) in urls.enumerated() {
            for (right, other) in urls.enumerated() where url == other {
                #expect(verdicts[left] == verdicts[right], "\(url) and \(other)")
                #expect(url.hashValue == other.hashValue)
            }
        }
        // Not vacuous: the two spellings of a path are decided apart.
        #expect(verdicts[0] != verdicts[3])
    }

    /// A list's items hold a parsed URL each, 100,000 of them for a long
    /// list: the URL's marks are two `UInt32`s (two `Int?` made it 96
    /// bytes), its port an `Int32` (an `Int?` after the 17-byte tail made
    /// it 80), its scheme a byte (a string made it 64); the item's rare
    /// error is boxed (inline it took 24) and its hash a `UInt32` (an `Int`
    /// made it 104).
    @Test func parsedURLsAndItemsStayCompact() {
        #expect(MemoryLayout<AASAURL>.stride <= 6 * MemoryLayout<Int>.size)
        #expect(MemoryLayout<AASAURL?>.stride == MemoryLayout<AASAURL>.stride)
        #expect(MemoryLayout<LinkTestPlan.Item>.stride <= 12 * MemoryLayout<Int>.size)
    }

    /// The scheme is a byte, read back as the string it was: either case
    /// sets it, and it counts in equality and the hash.
    @Test func schemeReadsAsItsName() throws {
        var url = try AASAURL("HTTPS://h/a")
        #expect(url.scheme == "https")
        let https = url
        url.scheme = "HTTP"
        #expect(url.scheme == "http" && url.description == "http://h/a")
        #expect(url != https && url.hashValue != https.hashValue)
        #expect(url == (try AASAURL("http://h/a")))
    }

    /// Random URLs of the differential tests: the same answers through the
    /// one-string layout as through parts.
    @Test func randomURLsReadAsTheirComponents() throws {
        var random = TestRandom(seed: 0x7A11)
        for _ in 0..<2_000 {
            let url = try AASAURL(RandomRules.url(&random))
            let parts = ReferenceURL(components: url)
            #expect(url.description == parts.description, "\(url)")
            #expect(parts.url == url && parts.url.hashValue == url.hashValue, "\(url)")
        }
    }
}

/// The byte classes of the URL parser are masks written as constants;
/// each is the set of the members its comment lists.
@Suite struct ASCIISetTests {
    private static func mask(_ members: String) -> ASCII.Set {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for byte in members.utf8 {
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
        return ASCII.Set(low: low, high: high)
    }

    @Test func masksAreTheirMembers() {
        #expect(ASCII.pathSet == Self.mask(" \"#<>?^`{}"))
        #expect(ASCII.querySet == Self.mask(" \"#<>'"))
        #expect(ASCII.fragmentSet == Self.mask(" \"<>`"))
        #expect(ASCII.forbiddenInHost == Self.mask(" #%/:<>?@[\\]^|"))
        #expect(ASCII.authorityEnds == Self.mask("/\\?#"))
        #expect(ASCII.pathEnds == Self.mask("?#"))
        #expect(ASCII.queryEnds == Self.mask("#"))
    }

    @Test func hexDigitsAreUppercase() {
        let digits = (0..<16).map { ASCII.hexDigit(UInt8($0)) }
        #expect(digits == Array("0123456789ABCDEF".utf8))
    }
}

/// The old layout's answers, from the components as strings.
extension ReferenceURL {
    fileprivate var url: AASAURL {
        AASAURL(scheme: scheme, host: host, port: port, path: path, query: query, fragment: fragment)
    }

    fileprivate var description: String {
        var text = "\(scheme)://\(host)"
        if let port { text += ":\(port)" }
        text += path
        if let query { text += "?\(query)" }
        if let fragment { text += "#\(fragment)" }
        return text
    }
}
