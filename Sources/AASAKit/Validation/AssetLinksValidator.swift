/// Validates Android's `/.well-known/assetlinks.json` as Google's Digital
/// Asset Links service does: size, JSON syntax, the bundled schema
/// (``JSONSchema/assetLinks``), then the lints, in one pass that reports
/// every finding.
///
/// ```json
/// [{"relation": ["delegate_permission/common.handle_all_urls"],
///   "target": {"namespace": "android_app", "package_name": "com.example.app",
///              "sha256_cert_fingerprints": ["14:6D:E9:…:C5"]}}]
/// ```
///
/// Every error is something Google rejects, and Google rejects the whole file
/// for any one of them (or, inside dynamic App Link rules, Android ignores
/// the rules and falls back to the app's intent filters). Warnings are what
/// Google accepts but is almost certainly a mistake. The origin runs this on
/// every load and reload, so it is total and linear in the input.
public struct AssetLinksValidator: Sendable {
    public init() {}

    /// Checks `bytes`, the file as served. ``ValidationReport/document`` is
    /// always `nil`; read the file with ``AssetLinksFile/init(json:)`` from
    /// ``ValidationReport/json``.
    ///
    /// - Parameter file: a name for the report and its diagnostics, such as
    ///   `aasa/example.com/assetlinks.json`.
    public func validate(bytes: [UInt8], file: String? = nil) -> ValidationReport {
        validate(bytes: bytes, file: file, host: nil)
    }

    /// ``validate(bytes:file:)`` for the file `host` serves, which also
    /// warns about a `web` target naming that same site.
    public func validate(bytes: [UInt8], file: String?, host: String?) -> ValidationReport {
        let parsed: JSONDocument
        switch AASAValidator.parse(bytes) {
        case .rejected(let diagnostic):
            return ValidationReport(file: file, diagnostics: [diagnostic])
        case .parsed(let document):
            parsed = document
        }
        let json = parsed.value
        var diagnostics = AASAValidator.duplicateKeyDiagnostics(parsed)
        let violations = JSONSchema.assetLinks.validate(json)
        diagnostics += violations.map { AssetLinksViolationReader.diagnostic(for: $0, in: json) }
        let malformedSets = Set(
            violations.filter(AssetLinksViolationReader.isInRuleSet).compactMap { violation -> Int? in
                guard case .index(let index)? = violation.path.components.first else { return nil }
                return index
            }
        )
        let model = AssetLinksFile(json: json)
        diagnostics += AssetLinksLints(file: model, host: host).diagnostics()
        diagnostics += DynamicRuleLints(file: model, malformedSets: malformedSets).diagnostics()
        return ValidationReport(file: file, diagnostics: diagnostics, json: json)
    }
}
