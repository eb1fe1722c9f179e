import Foundation
// Usage: swift scripts/generate-iso-codes.swift "Swift 6.3.1" > Sources/AASAKit/Resources/iso-codes.json
// Generates Sources/AASAKit/Resources/iso-codes.json from this machine's Foundation.
let legacyR = NSLocale.isoCountryCodes
let legacyL = NSLocale.isoLanguageCodes
let alpha2 = legacyR.filter { $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isUppercase } }
let numeric = legacyR.filter { !alpha2.contains($0) }
precondition(Set(Locale.Region.isoRegions.map(\.identifier)) == Set(legacyR))
precondition(Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier)) == Set(legacyL))
precondition(alpha2.contains("GB") && !alpha2.contains("UK"))
func list(_ a: [String]) -> String { "[" + a.sorted().map { "\"\($0)\"" }.joined(separator: ",") + "]" }
let f = ISO8601DateFormatter(); f.formatOptions = [.withFullDate]
let out = """
{
  "comment": "Pinned snapshot of Foundation's ISO code lists for $(region) and $(lang). Regenerate on a new OS/toolchain and review the diff.",
  "generated": "\(f.string(from: Date()))",
  "source": "NSLocale.isoCountryCodes / NSLocale.isoLanguageCodes (equal to Locale.Region.isoRegions / Locale.LanguageCode.isoLanguageCodes), swift-corelibs-foundation",
  "toolchain": "\(CommandLine.arguments.dropFirst().joined(separator: " "))",
  "platform": "\(ProcessInfo.processInfo.operatingSystemVersionString)",
  "regionsExcluded": "\(numeric.count) UN M.49 numeric area codes that Linux Foundation also lists (001, 150, 419, ...): $(region) takes ISO 3166-1 alpha-2 only",
  "regions": \(list(alpha2)),
  "languages": \(list(legacyL))
}

"""
print(out, terminator: "")
