import Foundation

extension JSONSchema {
    /// The schema of `assetlinks.json` files bundled with AASAKit (also at
    /// `schema/assetlinks.schema.json` in the repository, for editors): what
    /// Google's Digital Asset Links service accepts.
    public static let assetLinks: JSONSchema = {
        // Both failures are packaging bugs caught by AssetLinksSchemaTests,
        // not states a user's input can reach.
        guard
            let url = Bundle.module.url(
                forResource: "assetlinks.schema",
                withExtension: "json",
                subdirectory: "Resources"
            ),
            let data = try? Data(contentsOf: url)
        else {
            fatalError("AASAKit was packaged without Resources/assetlinks.schema.json")
        }
        do {
            return try JSONSchema(bytes: Array(data))
        } catch {
            fatalError("The bundled assetlinks.schema.json does not compile: \(error)")
        }
    }()
}
