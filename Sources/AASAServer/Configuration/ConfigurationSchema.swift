import AASAKit
import Foundation

/// The schema of `aasa serve`'s configuration (bundled here, published at
/// `schema/aasa-config.schema.json`): the single list of settings.
///
/// The `--config` file is validated against it; the settings, their types
/// and their environment variable names are read from it, so adding a key
/// to the schema is all it takes for a file, a variable and the checks to
/// know it (``ServerConfiguration/init(reader:)`` then reads it).
public struct ConfigurationSchema: Sendable {
    public let schema: JSONSchema
    /// Every setting, in the schema's order.
    public let keys: [ConfigurationKey]

    /// The bundled schema. Both failures are packaging bugs caught by
    /// ConfigurationSchemaTests, not states a user's input can reach.
    public static let bundled: ConfigurationSchema = {
        guard
            let url = Bundle.module.url(forResource: "aasa-config.schema", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else {
            fatalError("AASAServer was packaged without aasa-config.schema.json")
        }
        do {
            return try ConfigurationSchema(bytes: Array(data))
        } catch {
            fatalError("The bundled aasa-config.schema.json is not a usable configuration schema: \(error)")
        }
    }()

    /// Compiles `bytes` and lists its settings: the leaves of its
    /// `properties` (following local `$ref`s), each with its `type`.
    init(bytes: [UInt8]) throws {
        let document = try JSONParser().parse(bytes).value
        self.schema = try JSONSchema(document)
        var keys: [ConfigurationKey] = []
        try Self.collect(document, in: document, at: [], into: &keys)
        self.keys = keys
    }

    /// The setting at `components`, if there is one.
    func key(at components: [String]) -> ConfigurationKey? {
        keys.first { $0.components == components }
    }

    /// The names allowed directly under `parent` (`[]` for the top level).
    func names(under parent: [String]) -> [String] {
        var names: [String] = parent.isEmpty ? ["$schema"] : []
        for key in keys
        where key.components.count > parent.count && Array(key.components.prefix(parent.count)) == parent {
            let name = key.components[parent.count]
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    private static func collect(
        _ node: JSONValue,
        in document: JSONValue,
        at components: [String],
        into keys: inout [ConfigurationKey]
    ) throws {
        let summary = node["description"]?.stringValue
        let node = try resolved(node, in: document)
        if let properties = node["properties"]?.objectValue {
            for (name, child) in properties.members where name != "$schema" {
                try collect(child, in: document, at: components + [name], into: &keys)
            }
            return
        }
        let type: ConfigurationKey.ValueType
        switch node["type"]?.stringValue {
        case "string": type = .string
        case "integer": type = .integer
        case "number": type = .number
        case "boolean": type = .boolean
        case "array" where try resolved(node["items"] ?? .null, in: document)["type"]?.stringValue == "string":
            type = .stringArray
        default:
            throw SchemaShapeError(key: components.joined(separator: "."))
        }
        keys.append(
            ConfigurationKey(components: components, type: type, summary: summary ?? node["description"]?.stringValue)
        )
    }

    /// `node`, or the `$defs` entry its local `$ref` names.
    private static func resolved(_ node: JSONValue, in document: JSONValue) throws -> JSONValue {
        guard let reference = node["$ref"]?.stringValue else { return node }
        let prefix = "#/$defs/"
        guard reference.hasPrefix(prefix), let target = document["$defs"]?[String(reference.dropFirst(prefix.count))]
        else { throw SchemaShapeError(key: reference) }
        return target
    }

    /// A setting whose type the configuration reader has no case for.
    struct SchemaShapeError: Error, CustomStringConvertible {
        let key: String
        var description: String { "\(key): a setting must be a string, integer, number, boolean or array of strings" }
    }
}
