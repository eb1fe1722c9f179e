@testable import AASAKit

/// Random association files and URLs for ``MatcherDifferentialTests``,
/// built from a small alphabet so that rules and URLs often meet: shared
/// literal starts, case variants, escapes (valid, invalid, of `/` and of
/// non-ASCII), patterns starting with `*`, `?`, a variable or a built-in,
/// missing `/`, defaults that supply `/`, `percentEncoded: false`,
/// `caseSensitive`, legacy `paths` with `NOT `, non-object components,
/// undefined and unterminated variables, query strings and dictionaries.
enum RandomRules {
    static let segments = [
        "a", "b", "ab", "A", "B", "x", "é", "É", "%41", "%2F", "%zz", "%C3%A9", "7", "ß", "ẞ", "",
    ]
    static let patternSegments = [
        "a", "b", "ab", "A", "x*", "*", "?b", "$(v)", "$(w)", "$(digit)", "$(upper)", "é", "%41", "%c3%a9", "ß",
        "*a", "a*b", "7",
    ]

    static func file(_ random: inout TestRandom, rules: ClosedRange<Int> = 1...25) -> String {
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
                    JSONValue.string((random.chance(25) ? "NOT " : "") + pathPattern(&random)).serialized()
                }
                entry.append(#""paths": [\#(paths.joined(separator: ", "))]"#)
            } else {
                let components = (0..<count).map { _ in component(&random) }
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

    static func component(_ random: inout TestRandom) -> String {
        if random.chance(4) { return random.pick([#""x""#, "3", "null"]) }
        var keys: [String] = []
        if random.chance(85) { keys.append(#""/": \#(JSONValue.string(pathPattern(&random)).serialized())"#) }
        if random.chance(25) {
            if random.chance(50) {
                keys.append(#""?": \#(JSONValue.string(pattern(&random)).serialized())"#)
            } else {
                let name = random.pick(["q", "a", "é", "x"])
                keys.append(#""?": {"\#(name)": \#(JSONValue.string(pattern(&random)).serialized())}"#)
            }
        }
        if random.chance(15) { keys.append(##""#": \##(JSONValue.string(pattern(&random)).serialized())"##) }
        if random.chance(30) { keys.append(#""exclude": true"#) }
        if random.chance(20) { keys.append(#""caseSensitive": \#(random.chance(50))"#) }
        if random.chance(15) { keys.append(#""percentEncoded": false"#) }
        if random.chance(5) { keys.append(#""comment": "c""#) }
        return "{" + keys.joined(separator: ", ") + "}"
    }

    static func pathPattern(_ random: inout TestRandom) -> String {
        let start = random.chance(80) ? "/" : ""
        var text = start + (0..<(1 + random.below(4))).map { _ in random.pick(patternSegments) }.joined(separator: "/")
        if random.chance(30) { text += random.pick(["/*", "*", "/", "/?"]) }
        if random.chance(3) { text = random.pick(["*", "", "$(nope)/a", "/a/$(", "**", "/"]) }
        return text
    }

    static func pattern(_ random: inout TestRandom) -> String {
        (0..<random.below(4)).map { _ in random.pick(patternSegments + ["=", "&"]) }.joined()
    }

    static func url(_ random: inout TestRandom) -> String {
        var text = "https://h"
        let count = random.below(5)
        if count > 0 || random.chance(50) {
            text += "/" + (0..<count).map { _ in random.pick(segments) }.joined(separator: "/")
        }
        if random.chance(20) { text += "/" }
        if random.chance(35) {
            let items = (0..<(1 + random.below(3))).map { _ in
                random.pick(["q", "a", "é", "x", "%zz"]) + (random.chance(80) ? "=" + random.pick(segments) : "")
            }
            text += "?" + items.joined(separator: "&")
        }
        if random.chance(20) { text += "#" + random.pick(segments) + random.pick(segments) }
        return text
    }
}
