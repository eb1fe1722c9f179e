import AASAKit
import Foundation

/// The straightforward implementation the matcher is compared with: every
/// pattern translated to an anchored `NSRegularExpression` (`*` → `.*`,
/// `?` → `.`, everything else escaped; `$(name)` expanded into an
/// alternation of its values, built-ins into character classes), rules
/// tried in order, first match wins. No path normalisation, no
/// linear-time guarantee. Compiled once, like ours.
struct NaiveRegexMatcher {
    struct CompiledRule {
        var path: NSRegularExpression?
        var queryString: NSRegularExpression?
        var queryItems: [(name: String, regex: NSRegularExpression)]?
        var fragment: NSRegularExpression?
        var percentEncoded: Bool
        var exclude: Bool
    }

    enum Decision: String { case matched, blocked, none }

    private var rulesByAppID: [String: [CompiledRule]] = [:]
    private let domain: String

    init(file: AASAFile, domain: String) throws {
        self.domain = domain
        let variables = file.appLinks?.substitutionVariables ?? [:]
        for detail in file.appLinks?.details ?? [] {
            let rules = try detail.rules.map { try Self.compile($0.keys, variables: variables) }
            for appID in detail.appIDs where rulesByAppID[appID] == nil {
                rulesByAppID[appID] = rules
            }
        }
    }

    /// Pre-split URL parts, so neither side pays for URL parsing in the loop.
    struct Input {
        var host: String
        var path: String
        var query: String
        var fragment: String
        var items: [(String, String)]
        var decodedPath: String
        var decodedQuery: String
        var decodedFragment: String

        init(_ url: AASAURL) {
            host = url.host
            path = url.path.isEmpty ? "/" : url.path
            query = url.query ?? ""
            fragment = url.fragment ?? ""
            items = query.split(separator: "&", omittingEmptySubsequences: true).map { item in
                let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }
            decodedPath = path.removingPercentEncoding ?? path
            decodedQuery = query.removingPercentEncoding ?? query
            decodedFragment = fragment.removingPercentEncoding ?? fragment
        }
    }

    func evaluate(_ input: Input, appID: String) -> Decision {
        guard input.host == domain, let rules = rulesByAppID[appID] else { return .none }
        for rule in rules where Self.matches(rule, input) {
            return rule.exclude ? .blocked : .matched
        }
        return .none
    }

    private static func matches(_ rule: CompiledRule, _ input: Input) -> Bool {
        if let regex = rule.path, !whole(regex, rule.percentEncoded ? input.path : input.decodedPath) { return false }
        if let regex = rule.queryString, !whole(regex, rule.percentEncoded ? input.query : input.decodedQuery) {
            return false
        }
        if let items = rule.queryItems {
            for (name, regex) in items {
                var seen = false
                for (itemName, value) in input.items where itemName == name {
                    seen = true
                    let value = rule.percentEncoded ? value : (value.removingPercentEncoding ?? value)
                    if !whole(regex, value) { return false }
                }
                if !seen, !whole(regex, "") { return false }
            }
        }
        if let regex = rule.fragment,
            !whole(regex, rule.percentEncoded ? input.fragment : input.decodedFragment)
        {
            return false
        }
        return true
    }

    @inline(__always)
    static func whole(_ regex: NSRegularExpression, _ text: String) -> Bool {
        let range = NSRange(location: 0, length: (text as NSString).length)
        return regex.firstMatch(in: text, options: [.anchored], range: range) != nil
    }

    private static func compile(_ keys: ComponentKeys, variables: [String: [String]]) throws -> CompiledRule {
        let options: NSRegularExpression.Options = keys.caseSensitive ? [] : [.caseInsensitive]
        func regex(_ pattern: String) throws -> NSRegularExpression {
            try NSRegularExpression(pattern: "^" + translate(pattern, variables: variables) + "$", options: options)
        }
        var rule = CompiledRule(percentEncoded: keys.percentEncoded, exclude: keys.exclude)
        rule.path = try keys.path.map(regex)
        rule.fragment = try keys.fragment.map(regex)
        switch keys.query {
        case .string(let pattern)?: rule.queryString = try regex(pattern)
        case .items(let items)?: rule.queryItems = try items.map { ($0.name, try regex($0.pattern)) }
        case .ignoredDictionary?, nil: break
        }
        return rule
    }

    /// `*` → `.*`, `?` → `.`, `$(name)` → an alternation, the rest escaped.
    static func translate(_ pattern: String, variables: [String: [String]], expand: Bool = true) -> String {
        var out = ""
        var scalars = Substring(pattern)
        while let first = scalars.first {
            if expand, scalars.hasPrefix("$("), let close = scalars.firstIndex(of: ")") {
                let name = String(scalars[scalars.index(scalars.startIndex, offsetBy: 2)..<close])
                out += variable(name, variables: variables)
                scalars = scalars[scalars.index(after: close)...]
                continue
            }
            switch first {
            case "*": out += ".*"
            case "?": out += "."
            default: out += NSRegularExpression.escapedPattern(for: String(first))
            }
            scalars = scalars.dropFirst()
        }
        return out
    }

    static func variable(_ name: String, variables: [String: [String]]) -> String {
        if let values = variables[name] {
            return "(?:" + values.map { translate($0, variables: [:], expand: false) }.joined(separator: "|") + ")"
        }
        switch name {
        case "alpha": return "[A-Za-z]"
        case "upper": return "[A-Z]"
        case "lower": return "[a-z]"
        case "alnum": return "[A-Za-z0-9]"
        case "digit": return "[0-9]"
        case "xdigit": return "[0-9a-fA-F]"
        case "region": return "(?:" + ISOCodes.snapshot.regions.joined(separator: "|") + ")"
        case "lang": return "(?:" + ISOCodes.snapshot.languages.joined(separator: "|") + ")"
        default: return "(?!)"  // undefined: never matches
        }
    }
}
