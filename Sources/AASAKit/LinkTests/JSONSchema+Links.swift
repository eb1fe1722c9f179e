import Foundation

extension JSONSchema {
    /// The schema of `aasa test-links` links files bundled with AASAKit (also
    /// at `schema/links.schema.json` in the repository, for editors).
    public static let links: JSONSchema = {
        // Both failures are packaging bugs caught by LinksSchemaTests, not
        // states a user's input can reach.
        guard
            let url = Bundle.module.url(forResource: "links.schema", withExtension: "json", subdirectory: "Resources"),
            let data = try? Data(contentsOf: url)
        else {
            fatalError("AASAKit was packaged without Resources/links.schema.json")
        }
        do {
            return try JSONSchema(bytes: Array(data))
        } catch {
            fatalError("The bundled links.schema.json does not compile: \(error)")
        }
    }()
}
