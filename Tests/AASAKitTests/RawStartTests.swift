import Testing

@testable import AASAKit

/// The unreachable-rule check's cheap prefilters must never rule out a pair
/// that coverage could relate (``RawStart``), and its shapes must read a
/// path exactly as the matcher normalises it.
@Suite struct RawStartTests {
    static func comparable(_ earlier: String?, _ later: String?) -> Bool {
        RawStart(path: earlier).isComparable(with: RawStart(path: later))
    }

    /// Two written `/` keys and whether their starts may be related.
    static let cases: [(String?, String?, Bool)] = [
        ("/shop/a/*", "/shop/b/*", false),
        ("/shop/*", "/shop/b/*", true),
        ("/SHOP/a", "/shop/a", true),
        ("/a", "/b", false),
        // Cut at what the parsed pattern may read differently.
        ("/a*x", "/ab", true),
        ("/a?", "/ab", true),
        ("/a$(v)", "/ab", true),
        ("/a%62", "/ab", true),
        ("/a\\b", "/ab", true),
        ("/aé", "/ab", true),
        ("/a//b", "/a/c", true),
        // No written start: comparable with everything.
        ("a/b", "/c", true),
        (nil, "/c", true),
        ("/c", nil, true),
    ]

    @Test(arguments: cases)
    func writtenStarts(earlier: String?, later: String?, comparable: Bool) {
        #expect(Self.comparable(earlier, later) == comparable)
        #expect(Self.comparable(later, earlier) == comparable)
    }

    @Test func startsAreKeptUpToTheCapacity() {
        // "/", the shared bytes and one more fill the capacity exactly.
        let shared = String(repeating: "s", count: RawStart.capacity - 2)
        #expect(!Self.comparable("/" + shared + "a", "/" + shared + "b"))
        #expect(Self.comparable("/" + shared + "ab", "/" + shared + "ac"))
    }

    @Test(arguments: 0..<4)
    func shapesNormaliseLikeTheMatcher(seed: UInt64) {
        var random = TestRandom(seed: 0x5AAD_3000 + seed)
        let fixed = [
            "", "/", "//", "*", "**", "/*", "/**", "a", "/a", "/a/", "/a/*", "/a//*", "//a//b//", "*a*", "/é/ẞ/",
            "/a/**/b*",
            "🙂", "/🙂/*", "/%C3%A9//",
        ]
        let patterns = fixed + (0..<200).map { _ in RandomRules.pathPattern(&random) }
        for pattern in patterns {
            #expect(RuleCoverage.normalizedPath(pattern) == PathNormalization.normalize(pattern), "\(pattern)")
        }
    }
}
