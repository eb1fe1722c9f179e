import Foundation

/// A compiled JSON Schema (draft 2020-12) that validates `JSONValue`s.
///
/// The document is compiled once into a table of nodes: patterns are
/// compiled, `$ref`s resolved (local references, `$id` and `$anchor`; remote
/// schemas are never fetched) and operands checked, so `validate` does no
/// parsing and cannot fail. Annotation-only keywords (`title`, `format`,
/// `default`, …) are ignored, as the specification says; keywords that need
/// annotation collection (`unevaluatedProperties`, `unevaluatedItems`,
/// `$dynamicRef`) are refused at compile time rather than silently ignored.
public struct JSONSchema: Sendable {
    /// Node 0 is the document's root.
    let nodes: [SchemaNode]
    /// What each node of `nodes` does when it is one of the two shapes most
    /// nodes have (see ``SchemaShortcut``).
    let shortcuts: [SchemaShortcut]

    /// Compiles a schema document.
    ///
    /// Throws when the document is not an object or a boolean, a `$ref` cannot
    /// be resolved, a `pattern` is not a valid regular expression, a keyword
    /// has an operand of the wrong type, or a `$ref` cycle would never descend
    /// into the instance.
    public init(_ document: JSONValue) throws(JSONSchemaError) {
        var compiler = SchemaCompiler(document: document)
        self.nodes = try compiler.compile()
        self.shortcuts = nodes.map(SchemaShortcut.init)
    }

    /// Parses and compiles a schema document; JSON syntax errors are reported
    /// as `JSONSchemaError.Kind.invalidJSON` with their line and column.
    public init(bytes: [UInt8]) throws(JSONSchemaError) {
        let document: JSONValue
        do {
            document = try JSONParser().parse(bytes).value
        } catch {
            throw JSONSchemaError(.invalidJSON, at: "#", error.description)
        }
        try self.init(document)
    }

    /// The schema of `apple-app-site-association` files bundled with AASAKit
    /// (also at `schema/apple-app-site-association.schema.json` in the
    /// repository, for editors).
    public static let appleAppSiteAssociation = bundled("apple-app-site-association.schema")

    /// A schema in AASAKit's `Resources/`. Both failures are packaging bugs
    /// (each bundled schema has a test that loads it), not states a user's
    /// input can reach.
    static func bundled(_ name: String) -> JSONSchema {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Resources"),
            let data = try? Data(contentsOf: url)
        else {
            fatalError("AASAKit was packaged without Resources/\(name).json")
        }
        do {
            return try JSONSchema(bytes: Array(data))
        } catch {
            fatalError("The bundled \(name).json does not compile: \(error)")
        }
    }

    /// Every way `instance` breaks the schema, in document order of the
    /// instance; empty when it is valid.
    ///
    /// When no alternative of an `anyOf`/`oneOf` matches, the violations of
    /// the most plausible alternative are reported rather than a bare
    /// "matches none".
    public func validate(_ instance: JSONValue) -> [SchemaViolation] {
        let violations = SchemaEvaluator(nodes: nodes, shortcuts: shortcuts).evaluate(
            0,
            instance,
            at: InstanceTrail(),
            .all,
            depth: 0
        )
        guard violations.count > 1 else { return violations }
        var order = DocumentOrderIndex(root: instance)
        return violations.enumerated()
            .map { (order.key(for: $0.element.path), $0.offset, $0.element) }
            .sorted { lhs, rhs in lhs.0 != rhs.0 ? lhs.0.lexicographicallyPrecedes(rhs.0) : lhs.1 < rhs.1 }
            .map(\.2)
    }
}

/// One way an instance breaks a schema.
public struct SchemaViolation: Sendable, Hashable, CustomStringConvertible {
    /// Where in the instance (`applinks.details[0].components[2].exclude`).
    public var path: JSONPath
    /// The keyword that failed: `type`, `additionalProperties`, `required`, …;
    /// `false` for a `false` schema, and `$ref` when a recursive schema meets
    /// an instance nested too deeply to evaluate.
    public var keyword: String
    /// Where in the schema, as a URI fragment:
    /// `#/$defs/component/properties/exclude/type`.
    public var schemaPath: String
    /// What is wrong, for people: `expected boolean, got string`.
    public var message: String

    public init(path: JSONPath, keyword: String, schemaPath: String, message: String) {
        self.path = path
        self.keyword = keyword
        self.schemaPath = schemaPath
        self.message = message
    }

    /// `path: message`.
    public var description: String {
        "\(path): \(message)"
    }
}
