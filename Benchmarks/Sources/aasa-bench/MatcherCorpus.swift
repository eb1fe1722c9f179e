import Foundation

/// A deterministic pseudo-random source (SplitMix64), so every run
/// benchmarks the same file and URLs.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// The large, realistic file of the matcher benchmark and the URLs run
/// against it: hundreds of rules over a few dozen site sections, with
/// excludes, query dictionaries, fragments, `substitutionVariables` (with
/// wildcards in their values), built-ins, `$(region)`, per-entry and
/// file-level `defaults`.
struct MatcherCorpus {
    static let domain = "shop.bench.example"
    static let appID = "ABCDE12345.com.brand.app"
    static let otherAppID = "ABCDE12345.com.brand.kiosk"

    static let sections = [
        "shop", "products", "collections", "deals", "help", "orders", "account", "recipes", "stores",
        "gift", "blog", "events", "invite", "share", "wishlist", "reviews", "brand", "kids", "men", "women",
        "home", "garden", "sport", "beauty", "tech", "music", "books", "travel", "food", "outlet",
    ]
    static let categories = ["shoes", "bags", "hats", "coats", "shirts", "dresses", "watches", "toys", "lamps"]
    static let locales = ["en", "fr", "de", "es", "it", "nl", "pt-BR", "ja", "zh-Hans", "ko"]
    static let promos = ["summer*", "winter-??", "black-friday", "cyber-*-deal", "spring*sale"]
    static let regions = ["US", "GB", "FR", "DE", "JP", "BR", "IT", "ES", "CA", "AU"]

    /// How many templates there are; rule `i` uses template `i % templateCount`.
    static let templateCount = 12

    let json: String
    let ruleCount: Int
    let urls: [String]

    init(rules: Int = 420, urls urlCount: Int = 5000) {
        var components: [String] = []
        for index in 0..<rules {
            components.append(Self.component(index))
        }
        let kioskComponents = [
            #"{"/": "/kiosk/*"}"#, #"{"/": "/stores/*/today", "exclude": true}"#, #"{"/": "*"}"#,
        ]
        json = """
            {
              "applinks": {
                "defaults": {"caseSensitive": false},
                "substitutionVariables": {
                  "category": \(Self.array(Self.categories)),
                  "locale": \(Self.array(Self.locales)),
                  "promo": \(Self.array(Self.promos))
                },
                "details": [
                  {
                    "appIDs": ["\(Self.appID)"],
                    "defaults": {"percentEncoded": true},
                    "components": [
                      \(components.joined(separator: ",\n          "))
                    ]
                  },
                  {
                    "appIDs": ["\(Self.otherAppID)"],
                    "components": [\(kioskComponents.joined(separator: ", "))]
                  }
                ]
              },
              "webcredentials": {"apps": ["\(Self.appID)"]}
            }
            """
        ruleCount = rules

        var random = SplitMix64(seed: 0xA5A5_2026)
        var urls: [String] = []
        urls.reserveCapacity(urlCount)
        for _ in 0..<urlCount {
            urls.append(Self.url(random: &random, rules: rules))
        }
        self.urls = urls
    }

    static func array(_ values: [String]) -> String {
        "[" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }

    /// `s` for rule `index`: the section plus a suffix, so that rules of the
    /// same template differ but share prefixes (`shop`, `shop2`, …).
    static func section(_ index: Int) -> String {
        let round = index / (sections.count * templateCount)
        let name = sections[(index / templateCount) % sections.count]
        return round == 0 ? name : "\(name)\(round + 1)"
    }

    static func component(_ index: Int) -> String {
        let s = section(index)
        switch index % templateCount {
        case 0: return #"{"/": "/\#(s)/account/*", "exclude": true, "comment": "stays on the web"}"#
        case 1: return #"{"/": "/\#(s)/p/$(category)/*"}"#
        case 2: return #"{"/": "/\#(s)/item/????/*", "caseSensitive": true}"#
        case 3: return #"{"/": "/\#(s)/search", "?": {"q": "?*", "src": "app*"}}"#
        case 4: return #"{"/": "/\#(s)/$(locale)/store/*"}"#
        case 5: return ##"{"/": "/\##(s)/promo/*", "#": "share-*"}"##
        case 6: return #"{"/": "/\#(s)/blog/20$(digit)$(digit)/*/*"}"#
        case 7: return #"{"/": "/\#(s)/legacy/*", "?": "ref=*", "percentEncoded": false}"#
        case 8: return #"{"/": "/\#(s)/r/$(region)/*"}"#
        case 9: return #"{"/": "/\#(s)/offer/$(promo)"}"#
        case 10: return #"{"/": "/\#(s)/*/preview", "exclude": true, "?": {"draft": "1"}}"#
        default: return #"{"/": "/\#(s)/*/reviews", "?": {"page": "$(digit)*", "sort": "*"}}"#
        }
    }

    /// A URL aimed at a random rule (most match it, some miss on purpose),
    /// or at nothing at all; with the query noise real links carry.
    static func url(random: inout SplitMix64, rules: Int) -> String {
        let base = "https://\(domain)"
        var tracking: String {
            random.chance(30) ? "utm_source=mail&utm_campaign=c\(random.below(999))" : ""
        }
        func join(_ path: String, _ queries: [String], _ fragment: String? = nil) -> String {
            let query = queries.filter { !$0.isEmpty }.joined(separator: "&")
            return base + path + (query.isEmpty ? "" : "?" + query) + (fragment.map { "#" + $0 } ?? "")
        }
        if random.chance(15) {
            // Nothing of the file: every rule is tried and fails.
            return join("/nowhere/\(random.below(100_000))/x", [tracking])
        }
        let index = random.below(rules)
        let s = section(index)
        let miss = random.chance(20)
        switch index % templateCount {
        case 0: return join("/\(s)/account/\(miss ? "" : "settings/")\(random.below(999))", [tracking])
        case 1:
            let category = miss ? "socks" : random.pick(categories)
            return join("/\(s)/p/\(category)/\(random.below(99_999))", [tracking])
        case 2:
            let id = miss ? "12345" : String(format: "%04d", random.below(10_000))
            return join("/\(s)/item/\(id)/photos", [tracking])
        case 3:
            return join(
                "/\(s)/search",
                ["q=red+\(random.pick(categories))", miss ? "src=web" : "src=app-ios", tracking]
            )
        case 4:
            let locale = miss ? "xx" : random.pick(locales)
            return join("/\(s)/\(locale)/store/\(random.below(500))", [tracking])
        case 5:
            return join("/\(s)/promo/\(random.below(99))", [tracking], miss ? "top" : "share-\(random.below(9))")
        case 6:
            let year = miss ? "1999" : "20\(10 + random.below(20))"
            return join("/\(s)/blog/\(year)/\(random.below(12) + 1)/post-\(random.below(999))", [tracking])
        case 7:
            return join("/\(s)/legacy/caf%C3%A9/\(random.below(99))", [miss ? "from=x" : "ref=mail"])
        case 8:
            let region = miss ? "UK" : random.pick(regions)
            return join("/\(s)/r/\(region)/\(random.below(999))", [tracking])
        case 9:
            let offers = ["summer-2026", "winter-24", "black-friday", "cyber-monday-deal", "spring-big-sale"]
            return join("/\(s)/offer/\(miss ? "autumn" : random.pick(offers))", [tracking])
        case 10:
            return join("/\(s)/\(random.below(999))/preview", [miss ? "draft=0" : "draft=1"])
        default:
            return join("/\(s)/\(random.below(9999))/reviews", ["page=\(random.below(20))", miss ? "" : "sort=new"])
        }
    }
}
