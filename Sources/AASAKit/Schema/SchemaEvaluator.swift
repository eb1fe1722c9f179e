/// Applies compiled nodes to an instance and collects violations.
struct SchemaEvaluator {
    /// How deep evaluation may nest (schema applications along one branch).
    /// In-place cycles are refused at compile time, so only a very deep
    /// instance reaches this; it keeps such an instance from overflowing the stack.
    static let maximumDepth = 512

    enum Mode {
        /// Every violation: what users see.
        case all
        /// Stop at the first one: for `not`, `if` and `contains`, where only
        /// validity matters.
        case first
    }

    /// The schema location and instance location a keyword is evaluated at.
    struct Site {
        var location: String
        var trail: InstanceTrail

        /// The instance location, built when a violation needs it.
        var path: JSONPath { trail.path }

        func violation(_ keyword: String, _ message: String, at path: JSONPath? = nil) -> SchemaViolation {
            SchemaViolation(
                path: path ?? self.path,
                keyword: keyword,
                schemaPath: location + "/" + keyword,
                message: message
            )
        }
    }

    let nodes: [SchemaNode]
    /// By node index, as `nodes`.
    let shortcuts: [SchemaShortcut]

    func evaluate(
        _ index: Int,
        _ instance: JSONValue,
        at trail: InstanceTrail,
        _ mode: Mode,
        depth: Int
    ) -> [SchemaViolation] {
        // The two shapes most nodes have, decided from a table of plain
        // values: copying a node out of `nodes` retains and releases its
        // location and its keywords, at every node of every file.
        if depth < Self.maximumDepth {
            switch shortcuts[index] {
            case .reference(let target):
                return evaluate(Int(target), instance, at: trail, mode, depth: depth + 1)
            case .type(let accepted) where accepted.accepts(instance):
                return []
            case .type, .none:
                break
            }
        }
        let node = nodes[index]
        guard depth < Self.maximumDepth else {
            return [
                SchemaViolation(
                    path: trail.path,
                    keyword: "$ref",
                    schemaPath: node.location,
                    message: "the value is nested too deeply to validate (more than \(Self.maximumDepth) schema levels)"
                )
            ]
        }
        switch node.body {
        case .boolean(true):
            return []
        case .boolean(false):
            return [
                SchemaViolation(
                    path: trail.path,
                    keyword: "false",
                    schemaPath: node.location,
                    message: "no value is allowed here"
                )
            ]
        case .keywords(let keywords):
            let site = Site(location: node.location, trail: trail)
            var violations: [SchemaViolation] = []
            for keyword in keywords {
                violations.appendFound(check(keyword, instance, site, mode, depth: depth + 1))
                if mode == .first, !violations.isEmpty { break }
            }
            return violations
        }
    }

    private func check(
        _ keyword: SchemaKeyword,
        _ instance: JSONValue,
        _ site: Site,
        _ mode: Mode,
        depth: Int
    ) -> [SchemaViolation] {
        switch instance {
        case .string(let text):
            if let violation = checkString(keyword, text, site) { return [violation] }
        case .number(let number):
            if let violation = checkNumber(keyword, number, site) { return [violation] }
        case .array(let elements):
            let violations = checkArray(keyword, elements, site, mode, depth: depth)
            if !violations.isEmpty { return violations }
        case .object(let object):
            let violations = checkObject(keyword, object, site, mode, depth: depth)
            if !violations.isEmpty { return violations }
        case .null, .bool:
            break
        }
        return checkAny(keyword, instance, site, mode, depth: depth)
    }

    /// Keywords that apply to every type of instance.
    private func checkAny(
        _ keyword: SchemaKeyword,
        _ instance: JSONValue,
        _ site: Site,
        _ mode: Mode,
        depth: Int
    ) -> [SchemaViolation] {
        switch keyword {
        case .type(let names, let accepted):
            guard !accepted.accepts(instance) else { return [] }
            return [
                site.violation(
                    "type",
                    "expected \(SchemaMessages.typeList(names)), got \(SchemaMessages.kind(of: instance))"
                )
            ]
        case .enumeration(let values):
            guard !values.contains(instance) else { return [] }
            let expected =
                values.count == 1
                ? SchemaMessages.render(values[0])
                : "one of " + values.map(SchemaMessages.render).joined(separator: ", ")
            var message = "expected \(expected), got \(SchemaMessages.render(instance))"
            // A misspelt or miscapitalised keyword value ("Matched") is the usual cause.
            if case .string(let text) = instance,
                let suggestion = SchemaMessages.closest(to: text, among: values.compactMap(\.stringValue))
            {
                message += "; did you mean \(SchemaMessages.render(.string(suggestion)))?"
            }
            return [site.violation("enum", message)]
        case .constant(let value):
            guard value != instance else { return [] }
            return [
                site.violation(
                    "const",
                    "expected \(SchemaMessages.render(value)), got \(SchemaMessages.render(instance))"
                )
            ]
        case .allOf(let branches):
            var violations: [SchemaViolation] = []
            for branch in branches {
                violations.appendFound(evaluate(branch, instance, at: site.trail, mode, depth: depth))
                if mode == .first, !violations.isEmpty { break }
            }
            return violations
        case .anyOf(let branches):
            var results: [[SchemaViolation]] = []
            for branch in branches {
                let violations = evaluate(branch, instance, at: site.trail, mode, depth: depth)
                if violations.isEmpty { return [] }
                results.append(violations)
            }
            return explainNoMatch("anyOf", instance, branches: branches, results: results, site)
        case .oneOf(let branches):
            let results = branches.map { evaluate($0, instance, at: site.trail, mode, depth: depth) }
            let matching = results.indices.filter { results[$0].isEmpty }
            switch matching.count {
            case 1:
                return []
            case 0:
                return explainNoMatch("oneOf", instance, branches: branches, results: results, site)
            default:
                let list = matching.map(String.init).joined(separator: ", ")
                return [
                    site.violation(
                        "oneOf",
                        "matches \(matching.count) of the alternatives (\(list)); exactly one must match"
                    )
                ]
            }
        case .not(let node):
            guard evaluate(node, instance, at: site.trail, .first, depth: depth).isEmpty else { return [] }
            return [site.violation("not", SchemaMessages.negation(of: nodes[node]))]
        case .conditional(let condition, let then, let otherwise):
            let holds = evaluate(condition, instance, at: site.trail, .first, depth: depth).isEmpty
            guard let branch = holds ? then : otherwise else { return [] }
            return evaluate(branch, instance, at: site.trail, mode, depth: depth)
        case .dependentSchemas(let pairs):
            guard case .object(let object) = instance else { return [] }
            var violations: [SchemaViolation] = []
            for (name, node) in pairs where object[name] != nil {
                violations.appendFound(evaluate(node, instance, at: site.trail, mode, depth: depth))
            }
            return violations
        case .ref(let target):
            return evaluate(target, instance, at: site.trail, mode, depth: depth)
        default:
            return []
        }
    }

    /// When no alternative matches, "matches none of them" helps nobody.
    /// An alternative rejected only for its `type` (or `const`/`enum`) at this
    /// very location was about another kind of value; among the others, the
    /// one with the fewest violations is most likely what the author meant,
    /// so its violations are reported. When every alternative wants another
    /// kind of value, say which kinds.
    private func explainNoMatch(
        _ keyword: String,
        _ instance: JSONValue,
        branches: [Int],
        results: [[SchemaViolation]],
        _ site: Site
    ) -> [SchemaViolation] {
        let shapeKeywords: Set<String> = ["type", "const", "enum", "false"]
        let plausible = results.filter { violations in
            !violations.contains { $0.path == site.path && shapeKeywords.contains($0.keyword) }
        }
        if let best = plausible.min(by: { $0.count < $1.count }) {
            return best
        }
        let typeMismatches = results.allSatisfy { violations in
            violations.contains { $0.path == site.path && $0.keyword == "type" }
        }
        let types = branches.compactMap(declaredTypes)
        if typeMismatches, types.count == branches.count {
            return [
                site.violation(
                    keyword,
                    "expected \(SchemaMessages.typeList(types.flatMap { $0 })), got \(SchemaMessages.kind(of: instance))"
                )
            ]
        }
        let reasons = results.compactMap { $0.first?.message }.joined(separator: "; or ")
        return [site.violation(keyword, "matches none of the \(branches.count) alternatives: \(reasons)")]
    }

    /// The `type` a node declares, looking through `$ref`.
    private func declaredTypes(_ index: Int) -> [String]? {
        for keyword in nodes[index].keywords {
            switch keyword {
            case .type(let names, _): return names
            case .ref(let target): return declaredTypes(target)
            default: continue
            }
        }
        return nil
    }
}
