/// Wording of violation messages, written for someone who typed the file by hand.
enum SchemaMessages {
    /// Values longer than this are cut in messages.
    private static let renderLimit = 60

    /// The kind of a value as messages name it. Unlike `typeName`, every number
    /// is a "number": "expected string, got integer" would read oddly.
    static func kind(of value: JSONValue) -> String {
        if case .number = value { return "number" }
        return value.typeName
    }

    /// `string`, `string or object`, `array, object or null`. `integer` is
    /// dropped when `number` is also allowed.
    static func typeList(_ names: [String]) -> String {
        var unique: [String] = []
        for name in names where !unique.contains(name) {
            unique.append(name)
        }
        if unique.contains("number") { unique.removeAll { $0 == "integer" } }
        guard let last = unique.popLast() else { return "nothing" }
        return unique.isEmpty ? last : unique.joined(separator: ", ") + " or " + last
    }

    /// A value as JSON text, shortened when long.
    static func render(_ value: JSONValue) -> String {
        let text = value.serialized()
        guard text.count > renderLimit else { return text }
        return text.prefix(renderLimit - 1) + "…"
    }

    /// `1 item`, `3 items`.
    static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// The message for a key rejected by `additionalProperties: false`, with
    /// a suggestion when the key looks like a misspelt allowed one: the
    /// system ignores unknown keys, so a typo silently changes behaviour.
    static func unknownKey(_ key: String, known: [String]) -> String {
        var message = "unknown key \(render(.string(key))) (the system ignores unknown keys"
        if let suggestion = closest(to: key, among: known) {
            message += "; did you mean \(render(.string(suggestion)))?"
        }
        return message + ")"
    }

    /// Why a value failed `not`: the negated schema's single constraint when
    /// it has one, its location otherwise.
    static func negation(of node: SchemaNode) -> String {
        let keywords = node.keywords
        if keywords.count == 1 {
            switch keywords[0] {
            case .pattern(let regex): return "must not match the pattern \(render(.string(regex.pattern)))"
            case .constant(let value): return "must not be \(render(value))"
            case .enumeration(let values): return "must not be one of " + values.map(render).joined(separator: ", ")
            case .type(let names, _): return "must not be of type \(typeList(names))"
            case .required(let names):
                return "must not have the key(s) " + names.map { render(.string($0)) }.joined(separator: ", ")
            default: break
            }
        }
        return "must not match the schema at \(node.location)"
    }

    /// The allowed key `key` was most likely meant to be: one that differs
    /// only in case, or else the nearest within a small edit distance
    /// relative to the key's length (so `x` suggests nothing).
    static func closest(to key: String, among candidates: [String]) -> String? {
        let lowered = key.lowercased()
        if let sameLetters = candidates.first(where: { $0.lowercased() == lowered }) {
            return sameLetters
        }
        let typed = Array(lowered)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            let limit = min(2, (max(typed.count, candidate.count) - 1) / 2)
            if distance <= limit, distance < best?.distance ?? .max {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Levenshtein distance, two rows.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
