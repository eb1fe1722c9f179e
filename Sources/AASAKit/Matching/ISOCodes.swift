import Foundation

/// The pinned snapshot of Foundation's ISO code lists behind `$(region)` and
/// `$(lang)` (docs/SEMANTICS.md §5), read from `Resources/iso-codes.json`.
///
/// The system uses whatever its OS release ships, so the lists are pinned
/// and dated rather than read from the running Foundation: results do not
/// change with the machine that runs the tool.
public struct ISOCodes: Sendable {
    /// ISO 3166-1 alpha-2 codes (`GB`, not `UK`).
    public var regions: [String]
    /// ISO 639-1 codes where one exists, else 639-2: two and three letters.
    public var languages: [String]
    /// When and where the snapshot was taken (`2026-11-22, Swift 6.3.1 …`).
    public var provenance: String

    /// A snapshot from explicit lists.
    public init(regions: [String], languages: [String], provenance: String) {
        self.regions = regions
        self.languages = languages
        self.provenance = provenance
    }

    /// The bundled snapshot. Should the resource be unreadable (a broken
    /// install), the running Foundation's lists stand in, so `$(region)`
    /// still works.
    public static let snapshot: ISOCodes = bundled() ?? live()

    static func bundled() -> ISOCodes? {
        guard
            let url = Bundle.module.url(forResource: "iso-codes", withExtension: "json", subdirectory: "Resources")
                ?? Bundle.module.url(forResource: "iso-codes", withExtension: "json"),
            let data = try? Data(contentsOf: url),
            let json = try? JSONParser().parse([UInt8](data)).value,
            let regions = json["regions"]?.arrayValue?.compactMap(\.stringValue),
            let languages = json["languages"]?.arrayValue?.compactMap(\.stringValue)
        else { return nil }
        let provenance = [
            json["generated"]?.stringValue, json["toolchain"]?.stringValue, json["platform"]?.stringValue,
        ]
        .compactMap { $0 }.joined(separator: ", ")
        return ISOCodes(regions: regions, languages: languages, provenance: provenance)
    }

    static func live() -> ISOCodes {
        let regions = NSLocale.isoCountryCodes.filter {
            $0.count == 2 && $0.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
        }
        return ISOCodes(regions: regions, languages: NSLocale.isoLanguageCodes, provenance: "live Foundation lists")
    }
}
