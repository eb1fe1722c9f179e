import Foundation

extension JSONSchema {
    /// The schema of `assetlinks.json` files bundled with AASAKit (also at
    /// `schema/assetlinks.schema.json` in the repository, for editors): what
    /// Google's Digital Asset Links service accepts.
    public static let assetLinks = bundled("assetlinks.schema")
}
