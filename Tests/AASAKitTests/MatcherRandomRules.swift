@testable import AASAKit

/// Random association files and URLs for ``MatcherDifferentialTests``,
/// built from a small alphabet so that rules and URLs often meet: shared
/// literal starts, case variants, escapes (valid, invalid, of `/` and of
/// non-ASCII), patterns starting with `*`, `?`, a variable or a built-in,
/// missing `/`, defaults that supply `/`, `percentEncoded: false`,
/// `caseSensitive`, legacy `paths` with `NOT `, non-object components,
/// undefined and unterminated variables, query strings and dictionaries.
enum RandomRules {
    /// The pieces rules and URLs are made of.
    struct Alphabet {
        var segments: [String]
        var patternSegments: [String]
        var itemNames: [String]
    }

    static let standard = Alphabet(
        segments: segments,
        patternSegments: patternSegments,
        itemNames: ["q", "a", "é", "x"]
    )

    static let segments = [
        "a", "b", "ab", "A", "B", "x", "é", "É", "%41", "%2F", "%zz", "%C3%A9", "7", "ß", "ẞ", "",
    ]
    static let patternSegments = [
        "a", "b", "ab", "A", "x*", "*", "?b", "$(v)", "$(w)", "$(digit)", "$(upper)", "é", "%41", "%c3%a9", "ß",
        "*a", "a*b", "7",
    ]

    static func file(
        _ random: inout TestRandom,
        rules: ClosedRange<Int> = 1...25,
        alphabet: Alphabet = standard
    ) -> String {
        var applinks: [String] = []
        if random.chance(30) { applinks.append(#""defaults": \#(defaults(&random))"#) }
        if random.chance(60) {
            let digit = random.chance(20) ? #", "digit": ["7", "a"]"# : ""
            applinks.append(#""substitutionVariables": {"v": ["a", "b*", "é"], "w": ["x?", "A", ""]\#(digit)}"#)
        }
        var details: [String] = []
        for index in 0..<(1 + random.below(2)) {
            let app = index == 0 || random.chance(50) ? MatcherFixture.appID : "OTHER.app"
            var entry = [#""appIDs": ["\#(app)"]"#]
            if random.chance(25) { entry.append(#""defaults": \#(defaults(&random))"#) }
            let count = rules.lowerBound + random.below(rules.count)
            if random.chance(15) {
                let paths = (0..<count).map { _ in
                    JSONValue.string((random.chance(25) ? "NOT " : "") + pathPattern(&random, alphabet)).serialized()
                }
                entry.append(#""paths": [\#(paths.joined(separator: ", "))]"#)
            } else {
                let components = (0..<count).map { _ in component(&random, alphabet) }
                entry.append(#""components": [\#(components.joined(separator: ", "))]"#)
            }
            details.append("{" + entry.joined(separator: ", ") + "}")
        }
        applinks.append(#""details": [\#(details.joined(separator: ", "))]"#)
        return #"{"applinks": {\#(applinks.joined(separator: ", "))}}"#
    }

    static func defaults(_ random: inout TestRandom) -> String {
        random.pick([
            #"{"caseSensitive": false}"#, #"{"percentEncoded": false}"#, #"{"/": "/a/*"}"#, #"{"exclude": true}"#,
            #"{"caseSensitive": false, "percentEncoded": false}"#, #"{"?": {"q": "*"}}"#,
        ])
    }

    static func component(_ random: inout TestRandom, _ alphabet: Alphabet = standard) -> String {
        if random.chance(4) { return random.pick([#""x""#, "3", "null"]) }
        var keys: [String] = []
        if random.chance(85) { keys.append(#""/": \#(JSONValue.string(pathPattern(&random, alphabet)).serialized())"#) }
        if random.chance(25) {
            if random.chance(50) {
                keys.append(#""?": \#(JSONValue.string(pattern(&random, alphabet)).serialized())"#)
            } else {
                let name = JSONValue.string(random.pick(alphabet.itemNames)).serialized()
                keys.append(#""?": {\#(name): \#(JSONValue.string(pattern(&random, alphabet)).serialized())}"#)
            }
        }
        if random.chance(15) { keys.append(##""#": \##(JSONValue.string(pattern(&random, alphabet)).serialized())"##) }
        if random.chance(30) { keys.append(#""exclude": true"#) }
        if random.chance(20) { keys.append(#""caseSensitive": \#(random.chance(50))"#) }
        if random.chance(15) { keys.append(#""percentEncoded": false"#) }
        if random.chance(5) { keys.append(#""comment": "c""#) }
        return "{" + keys.joined(separator: ", ") + "}"
    }

    static func pathPattern(_ random: inout TestRandom, _ alphabet: Alphabet = standard) -> String {
        let start = random.chance(80) ? "/" : ""
        var text =
            start
            + (0..<(1 + random.below(4))).map { _ in random.pick(alphabet.patternSegments) }.joined(separator: "/")
        if random.chance(30) { text += random.pick(["/*", "*", "/", "/?"]) }
        if random.chance(3) { text = random.pick(["*", "", "$(nope)/a", "/a/$(", "**", "/"]) }
        return text
    }

    static func pattern(_ random: inout TestRandom, _ alphabet: Alphabet = standard) -> String {
        (0..<random.below(4)).map { _ in random.pick(alphabet.patternSegments + ["=", "&"]) }.joined()
    }

    static func url(_ random: inout TestRandom, _ alphabet: Alphabet = standard) -> String {
        // Hosts, ports and separators the parser rewrites, which the
        // matcher must not see: the host and port never take part.
        var text = "https://" + random.pick(["h", "h", "h", "H", "h:8443", "h:443", "u@h", "xn--bcher-kva", "bü"])
        let count = random.below(5)
        let separator = random.chance(10) ? "\\" : "/"
        if count > 0 || random.chance(50) {
            text += separator + (0..<count).map { _ in random.pick(alphabet.segments) }.joined(separator: separator)
        }
        if random.chance(20) { text += "/" }
        if let query = query(&random, alphabet) { text += "?" + query } else if random.chance(5) { text += "?" }
        if random.chance(20) { text += "#" + random.pick(alphabet.segments) + random.pick(alphabet.segments) }
        if random.chance(5) { text += random.pick(["#", "#?", "#a#b"]) }
        return text
    }

    /// A query of one to three items, or nil (no `?`).
    static func query(_ random: inout TestRandom, _ alphabet: Alphabet = standard) -> String? {
        guard random.chance(35) else { return nil }
        let items = (0..<(1 + random.below(3))).map { _ in
            random.pick(alphabet.itemNames + ["%zz"]) + (random.chance(80) ? "=" + random.pick(alphabet.segments) : "")
        }
        return items.joined(separator: "&")
    }
}
