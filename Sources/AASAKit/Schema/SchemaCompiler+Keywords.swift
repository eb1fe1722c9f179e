extension SchemaCompiler {
    /// Keywords that depend on annotation collection. Ignoring them would
    /// silently accept instances the schema author meant to reject.
    private static let unsupportedKeywords: Set<String> = [
        "$dynamicRef", "$recursiveRef", "unevaluatedProperties", "unevaluatedItems",
    ]

    private static let typeNames: Set<String> = ["null", "boolean", "object", "array", "number", "string", "integer"]

    /// Compiles the keywords of one schema object in the order written.
    /// Annotations (`title`, `format`, `default`, …) and unknown keywords are
    /// skipped, as the specification asks; keywords that only modify a
    /// sibling (`then`, `minContains`, …) are folded into that sibling.
    /// A `$ref` is compiled as `.ref(-1)` and patched once resolved.
    mutating func compileKeywords(
        _ object: JSONObject,
        at tokens: [String],
        base: String
    ) throws(JSONSchemaError) -> [SchemaKeyword] {
        var keywords: [SchemaKeyword] = []
        for (key, value) in object.members {
            let operand = Operand(value: value, tokens: tokens + [key])
            if let keyword = try compileKeyword(key, operand, in: object, base: base) {
                keywords.append(keyword)
            }
        }
        return keywords
    }

    private mutating func compileKeyword(
        _ key: String,
        _ operand: Operand,
        in object: JSONObject,
        base: String
    ) throws(JSONSchemaError) -> SchemaKeyword? {
        switch key {
        case "type":
            let names = try operand.strings(allowSingle: true)
            if let unknown = names.first(where: { !Self.typeNames.contains($0) }) {
                throw operand.invalid("unknown type \"\(unknown)\"")
            }
            return .type(names, SchemaTypes(names: names))
        case "enum":
            guard case .array(let values) = operand.value else { throw operand.invalid("expected an array") }
            return .enumeration(values)
        case "const":
            return .constant(operand.value)
        case "minimum": return .minimum(try operand.number())
        case "maximum": return .maximum(try operand.number())
        case "exclusiveMinimum": return .exclusiveMinimum(try operand.number())
        case "exclusiveMaximum": return .exclusiveMaximum(try operand.number())
        case "multipleOf":
            let divisor = try operand.number()
            guard divisor > 0 else { throw operand.invalid("expected a number greater than 0") }
            return .multipleOf(divisor)
        case "minLength": return .minLength(try operand.count())
        case "maxLength": return .maxLength(try operand.count())
        case "minItems": return .minItems(try operand.count())
        case "maxItems": return .maxItems(try operand.count())
        case "minProperties": return .minProperties(try operand.count())
        case "maxProperties": return .maxProperties(try operand.count())
        case "uniqueItems":
            guard case .bool(let unique) = operand.value else { throw operand.invalid("expected a boolean") }
            return unique ? .uniqueItems : nil
        case "pattern":
            return .pattern(try operand.regex(try operand.string()))
        case "required":
            return .required(try operand.strings(allowSingle: false))
        case "prefixItems":
            return .prefixItems(try compileSchemaArray(operand, base: base))
        case "items":
            if case .array = operand.value {
                throw operand.invalid("in draft 2020-12 \"items\" takes one schema; use \"prefixItems\" for a tuple")
            }
            let prefixCount = object["prefixItems"]?.arrayValue?.count ?? 0
            return .items(try compile(operand.value, at: operand.tokens, base: base), after: prefixCount)
        case "contains":
            var minimum = 1
            var maximum: Int?
            if let value = object["minContains"] {
                minimum = try Operand(value: value, tokens: operand.sibling("minContains")).count()
            }
            if let value = object["maxContains"] {
                maximum = try Operand(value: value, tokens: operand.sibling("maxContains")).count()
            }
            return .contains(
                try compile(operand.value, at: operand.tokens, base: base),
                minimum: minimum,
                maximum: maximum
            )
        case "properties":
            return .properties(try compileSchemaMap(operand, base: base).map { (name: $0.key, node: $0.node) })
        case "patternProperties":
            let entries = try compileSchemaMap(operand, base: base)
            var compiled: [(regex: SchemaRegex, node: Int)] = []
            for entry in entries {
                compiled.append(
                    (try Operand(value: .null, tokens: operand.tokens + [entry.key]).regex(entry.key), entry.node)
                )
            }
            return .patternProperties(compiled)
        case "additionalProperties":
            let declared = object["properties"]?.objectValue?.keys ?? []
            let patterns = (object["patternProperties"]?.objectValue?.keys ?? []).compactMap(SchemaRegex.init)
            return .additionalProperties(
                try compile(operand.value, at: operand.tokens, base: base),
                declared: declared,
                patterns: patterns
            )
        case "propertyNames":
            return .propertyNames(try compile(operand.value, at: operand.tokens, base: base))
        case "dependentRequired":
            guard case .object(let map) = operand.value else { throw operand.invalid("expected an object") }
            var pairs: [(name: String, required: [String])] = []
            for (name, value) in map.members {
                pairs.append(
                    (name, try Operand(value: value, tokens: operand.tokens + [name]).strings(allowSingle: false))
                )
            }
            return .dependentRequired(pairs)
        case "dependentSchemas":
            return .dependentSchemas(try compileSchemaMap(operand, base: base).map { (name: $0.key, node: $0.node) })
        case "allOf": return .allOf(try compileSchemaArray(operand, base: base))
        case "anyOf": return .anyOf(try compileSchemaArray(operand, base: base))
        case "oneOf": return .oneOf(try compileSchemaArray(operand, base: base))
        case "not":
            return .not(try compile(operand.value, at: operand.tokens, base: base))
        case "if":
            var then: Int?
            var otherwise: Int?
            if let value = object["then"] { then = try compile(value, at: operand.sibling("then"), base: base) }
            if let value = object["else"] { otherwise = try compile(value, at: operand.sibling("else"), base: base) }
            return .conditional(
                if: try compile(operand.value, at: operand.tokens, base: base),
                then: then,
                else: otherwise
            )
        case "then", "else":
            // Applied only through a sibling `if`, but still schemas whose
            // `$id`s a `$ref` may name.
            _ = try compile(operand.value, at: operand.tokens, base: base)
            return nil
        case "$defs":
            // Compiled so that errors in unused definitions surface and so
            // that their `$id`s and `$anchor`s are known before refs resolve.
            _ = try compileSchemaMap(operand, base: base)
            return nil
        case "$ref":
            _ = try operand.string()
            return .ref(-1)
        case _ where Self.unsupportedKeywords.contains(key):
            throw JSONSchemaError(
                .unsupportedKeyword,
                at: operand.location,
                "\"\(key)\" is not supported by this evaluator"
            )
        default:
            return nil
        }
    }

    private mutating func compileSchemaArray(_ operand: Operand, base: String) throws(JSONSchemaError) -> [Int] {
        guard case .array(let schemas) = operand.value, !schemas.isEmpty else {
            throw operand.invalid("expected a non-empty array of schemas")
        }
        var nodes: [Int] = []
        for (offset, schema) in schemas.enumerated() {
            nodes.append(try compile(schema, at: operand.tokens + [String(offset)], base: base))
        }
        return nodes
    }

    private mutating func compileSchemaMap(
        _ operand: Operand,
        base: String
    ) throws(JSONSchemaError) -> [(key: String, node: Int)] {
        guard case .object(let map) = operand.value else { throw operand.invalid("expected an object of schemas") }
        var entries: [(key: String, node: Int)] = []
        for (key, schema) in map.members {
            entries.append((key, try compile(schema, at: operand.tokens + [key], base: base)))
        }
        return entries
    }
}

/// A keyword's value with its location, and the checks keyword operands need.
private struct Operand {
    var value: JSONValue
    var tokens: [String]

    var location: String { "#" + SchemaCompiler.pointer(tokens) }

    func sibling(_ keyword: String) -> [String] {
        tokens.dropLast() + [keyword]
    }

    func invalid(_ message: String) -> JSONSchemaError {
        JSONSchemaError(.invalidSchema, at: location, message)
    }

    func string() throws(JSONSchemaError) -> String {
        guard case .string(let text) = value else { throw invalid("expected a string, got \(value.typeName)") }
        return text
    }

    func number() throws(JSONSchemaError) -> Double {
        guard case .number(let number) = value else { throw invalid("expected a number, got \(value.typeName)") }
        return number
    }

    /// A non-negative integer; `2.0` counts, as the specification says.
    func count() throws(JSONSchemaError) -> Int {
        guard case .number(let number) = value, number.isJSONInteger, number >= 0, number <= Double(Int32.max) else {
            throw invalid("expected a non-negative integer, got \(value.serialized())")
        }
        return Int(number)
    }

    func strings(allowSingle: Bool) throws(JSONSchemaError) -> [String] {
        if allowSingle, case .string(let single) = value { return [single] }
        guard case .array(let elements) = value else {
            throw invalid("expected an array of strings, got \(value.typeName)")
        }
        return try elements.map { element throws(JSONSchemaError) in
            guard case .string(let text) = element else {
                throw invalid("expected an array of strings, found \(element.typeName)")
            }
            return text
        }
    }

    func regex(_ pattern: String) throws(JSONSchemaError) -> SchemaRegex {
        guard let regex = SchemaRegex(pattern) else {
            throw JSONSchemaError(
                .invalidPattern,
                at: location,
                "\(JSONValue.string(pattern).serialized()) is not a valid regular expression"
            )
        }
        return regex
    }
}
