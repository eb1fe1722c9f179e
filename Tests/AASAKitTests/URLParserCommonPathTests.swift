import Testing

@testable import AASAKit

/// ``URLByteParser/parseCommon(_:host:in:)`` reads only the URLs it can read
/// in one pass and must give for each exactly what the general parse gives
/// (the same bytes, marks, host and port, and the host cache left the same).
@Suite struct URLParserCommonPathTests {
    /// Pieces of URLs: each list's first pieces keep a URL of the common
    /// kind, the others (picked a fifth of the time) make one of the
    /// shortcut's conditions fail or nearly fail in some position: schemes
    /// spelled otherwise, hosts with uppercase, ports, users, brackets and
    /// non-ASCII, dot segments in every spelling next to names that only
    /// look like them, bytes encoded in one component and not in another,
    /// backslashes, tabs, controls and spaces.
    static let schemes = (
        plain: ["https://", "http://"],
        edge: ["HTTPS://", "Http://", "https:/", "https:\\\\", " https://", "https:///", "ftp://"]
    )
    static let hosts = (
        plain: ["links.bench.example", "h", "a-b.c9"],
        edge: ["H", "Example.COM", "h:8443", "h:443", "u@h", "bü", "[::1]", "h%41", "", "h\t", "h^", "h|x"]
    )
    static let segments = (
        plain: [
            "a", "p", "orders2", "44554", "", "...", "a.b", ".x", "x.", "%2", "%", "%2f", "a%2eb", "file.pdf", "~", "+",
            "=", "&", "'", "|",
        ],
        edge: [
            ".", "..", "%2e", "%2E", ".%2e", "%2e.", "%2E%2e", "é", "a b", "\t", "\"", "{", "}", "^", "`", "\\",
            "\u{7F}", "\u{01}", "<", ">",
        ]
    )
    static let queryPieces = (
        plain: ["q=red+shoes", "ref=mail", "&", "=", "`", "\\", "?", "{}", "%zz", ".", ".."],
        edge: ["'", "\"", "é", " ", "<"]
    )
    static let fragmentPieces = (
        plain: ["share-4", "a", "'", "?", "#", "{}", "\\", ".."], edge: ["`", "é", " ", "\u{7F}", "\""]
    )

    static func pick(_ random: inout TestRandom, _ pieces: (plain: [String], edge: [String])) -> String {
        random.chance(80) ? random.pick(pieces.plain) : random.pick(pieces.edge)
    }

    static func url(_ random: inout TestRandom) -> String {
        var text = pick(&random, schemes) + pick(&random, hosts)
        if random.chance(85) {
            text += (0..<(1 + random.below(4))).map { _ in "/" + pick(&random, segments) }.joined()
            if random.chance(15) { text += "/" }
        }
        if random.chance(40) {
            text += "?" + (0..<random.below(4)).map { _ in pick(&random, queryPieces) }.joined()
        }
        if random.chance(20) {
            text += "#" + (0..<random.below(3)).map { _ in pick(&random, fragmentPieces) }.joined()
        }
        if random.chance(3) { text += random.pick([" ", "\n", "\t"]) }
        return text
    }

    @Test func theShortcutAgreesWithTheGeneralParse() {
        var random = TestRandom(seed: 0xC0_2013)
        var commonHost: String?
        var generalHost: String?
        var taken = 0
        for _ in 0..<20_000 {
            let text = Self.url(&random)
            var bytes = Array(text.utf8)
            bytes.withUnsafeMutableBufferPointer { mutable in
                let input = UnsafeBufferPointer(mutable)
                let general = Result { () throws(AASAURLError) in
                    try URLByteParser.parseGeneral(input, original: { text }, host: &generalHost)
                }
                guard let common = URLByteParser.parseCommon(input, host: &commonHost) else {
                    // Declined: the general parse, which ran above, decides,
                    // and the next URL starts from its host.
                    commonHost = generalHost
                    return
                }
                taken += 1
                guard case .success(let expected) = general else {
                    Issue.record("\(text.debugDescription): taken, but the general parse fails: \(general)")
                    return
                }
                #expect(common == expected, "\(text.debugDescription): \(common) vs \(expected)")
                #expect(common.description == expected.description, "\(text.debugDescription)")
                #expect(
                    ReferenceURL(components: common) == ReferenceURL(components: expected),
                    "\(text.debugDescription)"
                )
                #expect(
                    commonHost.map { Array($0.utf8) } == generalHost.map { Array($0.utf8) },
                    "\(text.debugDescription)"
                )
            }
        }
        // Not vacuous: both paths are taken often.
        #expect(taken > 4_000 && taken < 16_000, "\(taken) taken")
    }

    /// The list's usual URLs take the shortcut; each kind it leaves to the
    /// general parse is left to it.
    @Test(arguments: [
        ("https://links.bench.example/orders2/44554/reviews", true),
        ("https://links.bench.example/men/search?q=red+shoes&utm_source=mail#share-4", true),
        ("http://h", true), ("https://h?", true), ("https://h#", true), ("https://h/a?b#c?d#e", true),
        ("https://h/file.pdf", true), ("https://h/.../x", true), ("https://h/%2e%2e%2e", true),
        ("https://h/a%2Fb", true),
        ("https://h/./x", false), ("https://h/a/..", false), ("https://h/%2E/x", false), ("https://h/.%2e", false),
        ("https://H/x", false), ("HTTPS://h/x", false), ("https://h:8443/x", false), ("https://u@h/x", false),
        ("https://h/a b", false), ("https://h/a\\b", false), ("https://h/?'", false), ("https://h/#`", false),
        ("https://h/é", false), ("https://bü/x", false), (" https://h/x", false), ("https://h/x ", false),
        ("https://h/x\ty", false), ("https:///h", false), ("https://[::1]/x", false),
    ])
    func takesTheCommonKindOnly(_ text: String, _ common: Bool) {
        var bytes = Array(text.utf8)
        var host: String?
        let url = bytes.withUnsafeMutableBufferPointer {
            URLByteParser.parseCommon(UnsafeBufferPointer($0), host: &host)
        }
        #expect((url != nil) == common)
        // Against the general parse alone: `AASAURL(text)` tries the
        // shortcut first, so it would compare the shortcut with itself.
        var generalHost: String?
        let general = bytes.withUnsafeMutableBufferPointer { buffer in
            try? URLByteParser.parseGeneral(UnsafeBufferPointer(buffer), original: { text }, host: &generalHost)
        }
        if let url { #expect(url == general) }
    }

    /// Each class is what its comment says, from the general parse's sets.
    @Test func theClassesAreTheGeneralParsesBytes() {
        func members(_ test: (UInt8) -> Bool) -> ASCII.Set {
            var (low, high): (UInt64, UInt64) = (0, 0)
            for byte in UInt8(0)..<128 where test(byte) {
                if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
            }
            return ASCII.Set(low: low, high: high)
        }
        #expect(
            CommonURLBytes.host
                == members { $0 > 0x20 && $0 < 0x7F && !ASCII.isUpper($0) && !ASCII.isForbiddenInHost($0) }
        )
        #expect(CommonURLBytes.path == members { ASCII.isKept($0, ASCII.pathSet) && !"\\/.%".utf8.contains($0) })
        #expect(CommonURLBytes.query == members { ASCII.isKept($0, ASCII.querySet) })
        #expect(CommonURLBytes.fragment == members { ASCII.isKept($0, ASCII.fragmentSet) })
        for byte in UInt8.min...UInt8.max {
            #expect(CommonURLBytes.has(CommonURLBytes.query, byte) == CommonURLBytes.query.contains(byte))
        }
    }

    /// A host equal to the one held is the held string; another replaces it.
    @Test func theHostCacheIsUsedAndLeftHoldingTheHost() throws {
        var host: String? = "h"
        var bytes = Array("https://h/a".utf8)
        let first = bytes.withUnsafeMutableBufferPointer {
            URLByteParser.parseCommon(UnsafeBufferPointer($0), host: &host)
        }
        #expect(first?.host == "h" && host == "h")
        bytes = Array("https://other/a".utf8)
        let second = bytes.withUnsafeMutableBufferPointer {
            URLByteParser.parseCommon(UnsafeBufferPointer($0), host: &host)
        }
        #expect(second?.host == "other" && host == "other")
    }

    /// A host of the held one's length that differs from it in any one
    /// byte, whichever word of it that byte is in, is another host.
    @Test(arguments: [1, 7, 8, 9, 15, 16, 17, 24])
    func aHostDifferingInOneByteReplacesTheHeldOne(length: Int) {
        let held = String(repeating: "a", count: length)
        for position in 0..<length {
            var host: String? = held
            var other = Array(held.utf8)
            other[position] = UInt8(ascii: "b")
            var bytes = Array("https://".utf8) + other + Array("/p".utf8)
            let url = bytes.withUnsafeMutableBufferPointer {
                URLByteParser.parseCommon(UnsafeBufferPointer($0), host: &host)
            }
            #expect(url.map { Array($0.host.utf8) } == other, "\(length) \(position)")
            #expect(host.map { Array($0.utf8) } == other)
        }
        var host: String? = held
        var bytes = Array("https://\(held)/p".utf8)
        let same = bytes.withUnsafeMutableBufferPointer {
            URLByteParser.parseCommon(UnsafeBufferPointer($0), host: &host)
        }
        #expect(same?.host == held && host == held)
    }
}
