import Foundation

extension JSONSchema {
    /// The schema of `aasa test-links` links files bundled with AASAKit (also
    /// at `schema/links.schema.json` in the repository, for editors).
    public static let links = bundled("links.schema")
}

extension JSONSchema {
    /// The keys the `additionalProperties: false` at `schemaPath` (a
    /// violation's ``SchemaViolation/schemaPath``) allows.
    func declaredKeys(atSchemaPath schemaPath: String) -> [String]? {
        let suffix = "/additionalProperties"
        guard schemaPath.hasSuffix(suffix) else { return nil }
        let location = String(schemaPath.dropLast(suffix.count))
        for node in nodes where node.location == location {
            for case .additionalProperties(_, let declared, _) in node.keywords { return declared }
        }
        return nil
    }
}
