import Foundation

/// The corpus of the link-list row (`run.sh links`): one file of 400 rules,
/// excludes first, and a links file of URLs in `aasa test-links` format.
///
/// The rules use what `naive_links.py` (the reference) understands:
/// wildcards, `exclude`, `caseSensitive` (file-level default `false`, one
/// template `true`), a query string, a query dictionary and a fragment; no
/// substitution variables, and no URL whose decision hinges on path
/// normalisation. Two rules start with `*` (every URL must try them), 80
/// section excludes follow, then the includes.
///
/// Each URL is aimed at one rule and either hits it or misses on purpose;
/// one in ten aims at nothing. The generator knows which: a URL that opens
/// the app goes to `deep_linkable_urls`, any other to `non_deep_linkable_urls`.
struct LinkListCorpus {
    static let domain = "links.bench.example"
    static let appID = "ABCDE12345.com.brand.app"
    static let sectionCount = 40
    static let includeTemplates = 8

    let ruleCount: Int
    let deepLinkable: [String]
    let notDeepLinkable: [String]

    init(rules: Int = 400, urls: Int = 100_000) {
        ruleCount = min(rules, Self.rules().count)
        var random = SplitMix64(seed: 0x11AC_2026)
        var deep: [String] = []
        var other: [String] = []
        for _ in 0..<urls {
            let (url, opens) = Self.url(random: &random, rules: ruleCount)
            if opens { deep.append(url) } else { other.append(url) }
        }
        deepLinkable = deep
        notDeepLinkable = other
    }

    /// `s00`…: distinct first segments; every tenth one capitalised in some
    /// URLs to exercise `caseSensitive: false`.
    static func section(_ index: Int) -> String {
        let names = ["shop", "help", "deals", "orders", "blog", "stores", "gift", "men", "women", "kids"]
        return names[index % names.count] + (index < names.count ? "" : String(index / names.count + 1))
    }

    /// Every rule as JSON, in file order (then cut to `ruleCount`).
    static func rules() -> [String] {
        var rules = [#"{"/": "*/amp/*", "exclude": true}"#, #"{"/": "*.pdf", "exclude": true}"#]
        for index in 0..<sectionCount {
            let s = section(index)
            rules.append(#"{"/": "/\#(s)/account/*", "exclude": true, "comment": "stays on the web"}"#)
            rules.append(#"{"/": "/\#(s)/*/preview", "exclude": true}"#)
        }
        for index in 0..<sectionCount {
            let s = section(index)
            rules += [
                #"{"/": "/\#(s)/p/*"}"#,
                #"{"/": "/\#(s)/item/????/*", "caseSensitive": true}"#,
                #"{"/": "/\#(s)/search", "?": {"q": "?*"}}"#,
                ##"{"/": "/\##(s)/promo/*", "#": "share-*"}"##,
                #"{"/": "/\#(s)/blog/20??/*"}"#,
                #"{"/": "/\#(s)/c/*/all"}"#,
                #"{"/": "/\#(s)/legacy/*", "?": "ref=*"}"#,
                #"{"/": "/\#(s)/*/reviews"}"#,
            ]
        }
        return rules
    }

    func fileJSON() -> String {
        let components = Self.rules().prefix(ruleCount).joined(separator: ",\n        ")
        return """
            {
              "applinks": {
                "defaults": {"caseSensitive": false},
                "details": [
                  {
                    "appIDs": ["\(Self.appID)"],
                    "components": [
                    \(components)
                    ]
                  }
                ]
              }
            }

            """
    }

    func linksJSON() -> String {
        func list(_ urls: [String]) -> String {
            "[\n" + urls.map { "    \"\($0)\"" }.joined(separator: ",\n") + "\n  ]"
        }
        return
            "{\n  \"deep_linkable_urls\": \(list(deepLinkable)),\n  \"non_deep_linkable_urls\": \(list(notDeepLinkable))\n}\n"
    }

    /// Writes `DIR/apple-app-site-association` and `DIR/links.json`.
    func write(directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(fileJSON().utf8).write(to: URL(fileURLWithPath: directory + "/apple-app-site-association"))
        try Data(linksJSON().utf8).write(to: URL(fileURLWithPath: directory + "/links.json"))
        log("wrote \(ruleCount) rules and \(deepLinkable.count + notDeepLinkable.count) URLs to \(directory)")
    }

    /// A URL and whether it opens the app.
    static func url(random: inout SplitMix64, rules: Int) -> (String, Bool) {
        let base = "https://\(domain)"
        let n = random.below(100_000)
        let tracking = random.chance(30) ? "utm_source=mail&utm_campaign=c\(random.below(999))" : ""
        func join(_ path: String, _ query: [String] = [], _ fragment: String? = nil) -> String {
            let query = (query + [tracking]).filter { !$0.isEmpty }.joined(separator: "&")
            return base + path + (query.isEmpty ? "" : "?" + query) + (fragment.map { "#" + $0 } ?? "")
        }
        if random.chance(10) { return (join("/nowhere/\(n)/x"), false) }
        let index = random.below(rules)
        if index < 2 {
            let s = section(random.below(sectionCount))
            return (index == 0 ? join("/\(s)/amp/\(n)") : join("/\(s)/docs/\(n).pdf"), false)
        }
        let excludes = 2 + 2 * sectionCount
        var s = section(index < excludes ? (index - 2) / 2 : (index - excludes) / includeTemplates)
        if random.chance(5) { s = s.uppercased() }
        if index < excludes {
            return ((index - 2) % 2 == 0 ? join("/\(s)/account/\(n)") : join("/\(s)/\(n)/preview"), false)
        }
        let miss = random.chance(20)
        switch (index - excludes) % includeTemplates {
        case 0: return (join("/\(s)/\(miss ? "px" : "p")/\(n)"), !miss)
        case 1:
            // caseSensitive: the section as written, the miss in capitals.
            let item = "/\(s.lowercased())/\(miss ? "ITEM" : "item")/\(String(format: "%04d", n % 10_000))"
            return (join(item + "/photos"), !miss)
        case 2: return (join("/\(s)/search", [miss ? "q=" : "q=red+shoes"]), !miss)
        case 3: return (join("/\(s)/promo/\(n)", [], miss ? "top" : "share-\(n % 9)"), !miss)
        case 4: return (join("/\(s)/blog/\(miss ? "1999" : "20\(10 + n % 20)")/post-\(n)"), !miss)
        case 5: return (join("/\(s)/c/\(n % 50)/\(miss ? "some" : "\(n % 7)/all")"), !miss)
        case 6: return (join("/\(s)/legacy/\(n)", [miss ? "from=x" : "ref=mail"]), !miss)
        default: return (join("/\(s)/\(n)/\(miss ? "review" : "reviews")"), !miss)
        }
    }
}
