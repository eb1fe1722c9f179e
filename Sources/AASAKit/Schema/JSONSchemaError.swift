/// Why a schema document could not be compiled, and where in it.
///
/// A struct around a private enum, so that new kinds can be added without
/// breaking code that switches over them.
public struct JSONSchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The category of the failure; compare with `==` against the static members.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case invalidJSON = "invalid JSON"
            case invalidSchema = "invalid schema"
            case unsupportedKeyword = "unsupported keyword"
            case invalidPattern = "invalid pattern"
            case unresolvableReference = "unresolvable $ref"
            case circularReference = "circular $ref"
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The bytes are not JSON.
        public static let invalidJSON = Kind(.invalidJSON)
        /// A keyword has an operand of the wrong type or range, or a schema is
        /// neither an object nor a boolean.
        public static let invalidSchema = Kind(.invalidSchema)
        /// A keyword this evaluator does not implement and cannot ignore
        /// safely (`unevaluatedProperties`, `$dynamicRef`, …).
        public static let unsupportedKeyword = Kind(.unsupportedKeyword)
        /// A `pattern` or `patternProperties` key is not a valid regular expression.
        public static let invalidPattern = Kind(.invalidPattern)
        /// A `$ref` names nothing in the document (remote references are never fetched).
        public static let unresolvableReference = Kind(.unresolvableReference)
        /// A `$ref` chain applies a schema to the same value forever.
        public static let circularReference = Kind(.circularReference)

        public var description: String { base.rawValue }
    }

    public var kind: Kind
    /// Where in the schema document, as a URI fragment such as
    /// `#/$defs/component/properties/exclude/type` (`#` for the whole document).
    public var schemaPath: String
    /// What is wrong, for people.
    public var message: String

    public init(_ kind: Kind, at schemaPath: String, _ message: String) {
        self.kind = kind
        self.schemaPath = schemaPath
        self.message = message
    }

    public var description: String {
        "\(kind) at \(schemaPath): \(message)"
    }
}
