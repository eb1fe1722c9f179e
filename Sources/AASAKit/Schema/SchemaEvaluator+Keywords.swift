import Foundation

/// The type-specific keywords. Each ignores instances of other types, as the
/// specification requires (`minLength` says nothing about a number).
extension SchemaEvaluator {
    func checkString(_ keyword: SchemaKeyword, _ text: String, _ site: Site) -> SchemaViolation? {
        switch keyword {
        case .minLength(let minimum):
            // The specification counts Unicode code points, not grapheme
            // clusters or UTF-16 units.
            let length = text.unicodeScalars.count
            guard length < minimum else { return nil }
            return site.violation(
                "minLength",
                "expected at least \(SchemaMessages.count(minimum, "character")), got \(length)"
            )
        case .maxLength(let maximum):
            let length = text.unicodeScalars.count
            guard length > maximum else { return nil }
            return site.violation(
                "maxLength",
                "expected at most \(SchemaMessages.count(maximum, "character")), got \(length)"
            )
        case .pattern(let regex):
            guard !regex.matches(text) else { return nil }
            return site.violation(
                "pattern",
                "\(SchemaMessages.render(.string(text))) does not match the pattern \(SchemaMessages.render(.string(regex.pattern)))"
            )
        default:
            return nil
        }
    }

    func checkNumber(_ keyword: SchemaKeyword, _ number: Double, _ site: Site) -> SchemaViolation? {
        let got = SchemaMessages.render(.number(number))
        switch keyword {
        case .minimum(let limit) where number < limit:
            return site.violation(
                "minimum",
                "expected a number >= \(SchemaMessages.render(.number(limit))), got \(got)"
            )
        case .maximum(let limit) where number > limit:
            return site.violation(
                "maximum",
                "expected a number <= \(SchemaMessages.render(.number(limit))), got \(got)"
            )
        case .exclusiveMinimum(let limit) where number <= limit:
            return site.violation(
                "exclusiveMinimum",
                "expected a number > \(SchemaMessages.render(.number(limit))), got \(got)"
            )
        case .exclusiveMaximum(let limit) where number >= limit:
            return site.violation(
                "exclusiveMaximum",
                "expected a number < \(SchemaMessages.render(.number(limit))), got \(got)"
            )
        case .multipleOf(let divisor) where !Self.isMultiple(number, of: divisor):
            return site.violation(
                "multipleOf",
                "expected a multiple of \(SchemaMessages.render(.number(divisor))), got \(got)"
            )
        default:
            return nil
        }
    }

    /// Binary floating point cannot represent most decimal fractions
    /// (`0.0075 / 0.0001` is not exactly 75), so a quotient that is not
    /// integral is checked again in decimal arithmetic on the numbers' shortest
    /// representations, which is what the author wrote. A quotient that
    /// overflows is not a multiple.
    static func isMultiple(_ number: Double, of divisor: Double) -> Bool {
        let quotient = number / divisor
        guard quotient.isFinite else { return false }
        if quotient.rounded() == quotient { return true }
        guard let decimalNumber = Decimal(string: "\(number)"), let decimalDivisor = Decimal(string: "\(divisor)")
        else {
            return false
        }
        var exact = decimalNumber / decimalDivisor
        var rounded = Decimal()
        NSDecimalRound(&rounded, &exact, 0, .plain)
        return rounded == exact
    }

    func checkArray(
        _ keyword: SchemaKeyword,
        _ elements: [JSONValue],
        _ site: Site,
        _ mode: Mode,
        depth: Int
    ) -> [SchemaViolation] {
        switch keyword {
        case .prefixItems(let schemas):
            var violations: [SchemaViolation] = []
            for (offset, node) in zip(elements.indices, schemas) {
                violations.appendFound(
                    site.trail.descending(.index(offset)) {
                        evaluate(node, elements[offset], at: site.trail, mode, depth: depth)
                    }
                )
            }
            return violations
        case .items(let node, let start):
            guard start < elements.count else { return [] }
            if nodes[node].isFalse {
                return (start..<elements.count).map { offset in
                    site.violation(
                        "items",
                        "unexpected item: at most \(SchemaMessages.count(start, "item")) allowed",
                        at: site.trail.path(appending: .index(offset))
                    )
                }
            }
            var violations: [SchemaViolation] = []
            for offset in start..<elements.count {
                violations.appendFound(
                    site.trail.descending(.index(offset)) {
                        evaluate(node, elements[offset], at: site.trail, mode, depth: depth)
                    }
                )
                if mode == .first, !violations.isEmpty { break }
            }
            return violations
        case .contains(let node, let minimum, let maximum):
            let matches = elements.indices.count(where: { offset in
                site.trail.descending(.index(offset)) {
                    evaluate(node, elements[offset], at: site.trail, .first, depth: depth)
                }.isEmpty
            })
            if matches < minimum {
                let keyword = minimum == 1 ? "contains" : "minContains"
                return [
                    site.violation(
                        keyword,
                        "expected at least \(SchemaMessages.count(minimum, "item")) matching \"contains\", got \(matches)"
                    )
                ]
            }
            if let maximum, matches > maximum {
                return [
                    site.violation(
                        "maxContains",
                        "expected at most \(SchemaMessages.count(maximum, "item")) matching \"contains\", got \(matches)"
                    )
                ]
            }
            return []
        case .minItems(let minimum) where elements.count < minimum:
            return [
                site.violation(
                    "minItems",
                    "expected at least \(SchemaMessages.count(minimum, "item")), got \(elements.count)"
                )
            ]
        case .maxItems(let maximum) where elements.count > maximum:
            return [
                site.violation(
                    "maxItems",
                    "expected at most \(SchemaMessages.count(maximum, "item")), got \(elements.count)"
                )
            ]
        case .uniqueItems:
            var firstIndex: [JSONValue: Int] = [:]
            var violations: [SchemaViolation] = []
            for (offset, element) in elements.enumerated() {
                if let first = firstIndex[element] {
                    violations.append(
                        site.violation(
                            "uniqueItems",
                            "same as item \(first); items must be unique",
                            at: site.trail.path(appending: .index(offset))
                        )
                    )
                } else {
                    firstIndex[element] = offset
                }
            }
            return violations
        default:
            return []
        }
    }

    func checkObject(
        _ keyword: SchemaKeyword,
        _ object: JSONObject,
        _ site: Site,
        _ mode: Mode,
        depth: Int
    ) -> [SchemaViolation] {
        var violations: [SchemaViolation] = []
        switch keyword {
        case .properties(let properties):
            for (name, node) in properties {
                guard let value = object[name] else { continue }
                violations.appendFound(
                    site.trail.descending(.key(name)) { evaluate(node, value, at: site.trail, mode, depth: depth) }
                )
                if mode == .first, !violations.isEmpty { break }
            }
        case .patternProperties(let patterns):
            for name in object.keys {
                for (regex, node) in patterns where regex.matches(name) {
                    guard let value = object[name] else { continue }
                    violations.appendFound(
                        site.trail.descending(.key(name)) { evaluate(node, value, at: site.trail, mode, depth: depth) }
                    )
                }
            }
        case .additionalProperties(let node, let declared, let patterns):
            // By key: the value is looked up only for an undeclared key
            // with a schema to check it against.
            for name in object.keys where !declared.contains(name) && !patterns.contains(where: { $0.matches(name) }) {
                if nodes[node].isFalse {
                    violations.append(
                        site.violation(
                            "additionalProperties",
                            SchemaMessages.unknownKey(name, known: declared),
                            at: site.trail.path(appending: .key(name))
                        )
                    )
                } else if let value = object[name] {
                    violations.appendFound(
                        site.trail.descending(.key(name)) { evaluate(node, value, at: site.trail, mode, depth: depth) }
                    )
                }
                if mode == .first, !violations.isEmpty { break }
            }
        case .propertyNames(let node):
            for name in object.keys {
                let found = site.trail.descending(.key(name)) {
                    evaluate(node, .string(name), at: site.trail, mode, depth: depth)
                }
                for violation in found {
                    var renamed = violation
                    renamed.message = "invalid key: " + violation.message
                    violations.append(renamed)
                }
            }
        case .required(let names):
            for name in names where object[name] == nil {
                violations.append(
                    site.violation("required", "missing required key \(SchemaMessages.render(.string(name)))")
                )
            }
        case .minProperties(let minimum) where object.count < minimum:
            violations.append(
                site.violation(
                    "minProperties",
                    "expected at least \(SchemaMessages.count(minimum, "key")), got \(object.count)"
                )
            )
        case .maxProperties(let maximum) where object.count > maximum:
            violations.append(
                site.violation(
                    "maxProperties",
                    "expected at most \(SchemaMessages.count(maximum, "key")), got \(object.count)"
                )
            )
        case .dependentRequired(let dependencies):
            for (name, required) in dependencies where object[name] != nil {
                for missing in required where object[missing] == nil {
                    let message =
                        "missing key \(SchemaMessages.render(.string(missing))), required when \(SchemaMessages.render(.string(name))) is present"
                    violations.append(site.violation("dependentRequired", message))
                }
            }
        default:
            break
        }
        return violations
    }
}

extension [SchemaViolation] {
    /// Appends what a nested evaluation found. Most find nothing, and the
    /// schema runs on every file of every load: an empty result costs a
    /// check, not a call to `append(contentsOf:)`.
    @inline(__always)
    mutating func appendFound(_ found: [SchemaViolation]) {
        guard !found.isEmpty else { return }
        if isEmpty {
            self = found
        } else {
            append(contentsOf: found)
        }
    }
}
