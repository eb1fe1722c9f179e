import Foundation

/// One compiled (sub)schema. Subschemas are referred to by their index in
/// `JSONSchema.nodes`, which lets `$ref` cycles exist without reference
/// cycles in memory.
struct SchemaNode: Sendable {
    enum Body: Sendable {
        /// `true` accepts everything, `false` nothing.
        case boolean(Bool)
        /// Keywords in the order they were written.
        case keywords([SchemaKeyword])
    }

    /// Where the schema sits in the document, as a URI fragment
    /// (`#/$defs/component`); violations report `location/keyword`.
    var location: String
    var body: Body

    var isFalse: Bool {
        if case .boolean(false) = body { return true }
        return false
    }

    var keywords: [SchemaKeyword] {
        if case .keywords(let keywords) = body { return keywords }
        return []
    }
}

/// A validation keyword with its operands checked and converted once, at
/// compile time. `Int` operands that name schemas are node indices.
enum SchemaKeyword: Sendable {
    /// The names as written (for messages) and the types they accept.
    case type([String], SchemaTypes)
    case enumeration([JSONValue])
    case constant(JSONValue)

    case minimum(Double)
    case maximum(Double)
    case exclusiveMinimum(Double)
    case exclusiveMaximum(Double)
    case multipleOf(Double)

    case minLength(Int)
    case maxLength(Int)
    case pattern(SchemaRegex)

    case prefixItems([Int])
    /// `items` applies to the elements after the `prefixItems` ones.
    case items(Int, after: Int)
    case contains(Int, minimum: Int, maximum: Int?)
    case minItems(Int)
    case maxItems(Int)
    case uniqueItems

    case properties([(name: String, node: Int)])
    case patternProperties([(regex: SchemaRegex, node: Int)])
    /// Carries its sibling `properties` names and `patternProperties`
    /// patterns, which decide what counts as "additional".
    case additionalProperties(Int, declared: [String], patterns: [SchemaRegex])
    case propertyNames(Int)
    case required([String])
    case minProperties(Int)
    case maxProperties(Int)
    case dependentRequired([(name: String, required: [String])])
    case dependentSchemas([(name: String, node: Int)])

    case allOf([Int])
    case anyOf([Int])
    case oneOf([Int])
    case not(Int)
    case conditional(if: Int, then: Int?, else: Int?)
    case ref(Int)

    /// The keyword as written in the schema, for `SchemaViolation.keyword`
    /// and `schemaPath`.
    var name: String {
        switch self {
        case .type: "type"
        case .enumeration: "enum"
        case .constant: "const"
        case .minimum: "minimum"
        case .maximum: "maximum"
        case .exclusiveMinimum: "exclusiveMinimum"
        case .exclusiveMaximum: "exclusiveMaximum"
        case .multipleOf: "multipleOf"
        case .minLength: "minLength"
        case .maxLength: "maxLength"
        case .pattern: "pattern"
        case .prefixItems: "prefixItems"
        case .items: "items"
        case .contains: "contains"
        case .minItems: "minItems"
        case .maxItems: "maxItems"
        case .uniqueItems: "uniqueItems"
        case .properties: "properties"
        case .patternProperties: "patternProperties"
        case .additionalProperties: "additionalProperties"
        case .propertyNames: "propertyNames"
        case .required: "required"
        case .minProperties: "minProperties"
        case .maxProperties: "maxProperties"
        case .dependentRequired: "dependentRequired"
        case .dependentSchemas: "dependentSchemas"
        case .allOf: "allOf"
        case .anyOf: "anyOf"
        case .oneOf: "oneOf"
        case .not: "not"
        case .conditional: "if"
        case .ref: "$ref"
        }
    }

    var isReference: Bool {
        if case .ref = self { return true }
        return false
    }

    /// Subschemas applied to the same instance location. A cycle through
    /// these edges would never terminate, so the compiler rejects it.
    var inPlaceSubschemas: [Int] {
        switch self {
        case .allOf(let nodes), .anyOf(let nodes), .oneOf(let nodes): nodes
        case .not(let node), .ref(let node): [node]
        case .conditional(let condition, let then, let otherwise): [condition] + [then, otherwise].compactMap { $0 }
        case .dependentSchemas(let pairs): pairs.map(\.node)
        default: []
        }
    }
}

/// A `pattern` or `patternProperties` regular expression, compiled once.
///
/// `@unchecked Sendable`: `NSRegularExpression` is immutable after creation
/// and documented as safe to use from several threads at once; older
/// corelibs-foundation releases just do not declare it `Sendable`.
struct SchemaRegex: @unchecked Sendable {
    let pattern: String
    private let regex: NSRegularExpression

    /// Returns `nil` when the pattern does not compile.
    init?(_ pattern: String) {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        self.pattern = pattern
        self.regex = regex
    }

    /// JSON Schema patterns are not anchored: any match inside `text` counts.
    func matches(_ text: String) -> Bool {
        regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
