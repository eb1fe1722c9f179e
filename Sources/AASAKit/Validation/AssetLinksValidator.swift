/// Validates Android's `/.well-known/assetlinks.json`, served beside the AASA
/// file by the same origin: a JSON array of Digital Asset Links statements.
///
/// ```json
/// [{"relation": ["delegate_permission/common.handle_all_urls"],
///   "target": {"namespace": "android_app", "package_name": "com.example.app",
///              "sha256_cert_fingerprints": ["14:6D:E9:…:C5"]}}]
/// ```
///
/// Checked by hand rather than with a schema because the useful messages are
/// specific (a fingerprint with 31 bytes, a package name with a hyphen). The
/// size cap and JSON rules are the AASA validator's.
public struct AssetLinksValidator: Sendable {
    /// The relations Android acts on; others are legal but do nothing there.
    static let knownRelations: Set<String> = [
        "delegate_permission/common.handle_all_urls",
        "delegate_permission/common.get_login_creds",
    ]
    static let appLinksRelation = "delegate_permission/common.handle_all_urls"

    public init() {}

    /// Checks `bytes`, the file as served. ``ValidationReport/document`` is
    /// always `nil`: there is no AASA model of this file.
    public func validate(bytes: [UInt8], file: String? = nil) -> ValidationReport {
        let parsed: JSONDocument
        switch AASAValidator.parse(bytes) {
        case .rejected(let diagnostic):
            return ValidationReport(file: file, diagnostics: [diagnostic])
        case .parsed(let document):
            parsed = document
        }
        var diagnostics = AASAValidator.duplicateKeyDiagnostics(parsed)
        guard let statements = parsed.value.arrayValue else {
            diagnostics.append(
                .error(
                    "assetlinks.type",
                    at: .root,
                    "expected array, got \(parsed.value.typeName); assetlinks.json must be an array of statements"
                )
            )
            return ValidationReport(file: file, diagnostics: diagnostics, json: parsed.value)
        }
        if statements.isEmpty {
            diagnostics.append(
                .warning("assetlinks.empty", at: .root, "the file has no statements, so it associates no app")
            )
        }
        for (offset, statement) in statements.enumerated() {
            diagnostics += StatementChecker(path: JSONPath([.index(offset)])).check(statement)
        }
        let grantsAppLinks = statements.contains { statement in
            statement["relation"]?.arrayValue?.contains(.string(Self.appLinksRelation)) == true
                && statement["target"]?["namespace"] == .string("android_app")
        }
        if !statements.isEmpty, !grantsAppLinks {
            diagnostics.append(
                .info(
                    "assetlinks.no-app-links",
                    at: .root,
                    """
                    no statement grants \(Self.appLinksRelation) to an android_app, so Android verifies no App Links \
                    for this site (fine if the file is only for sharing credentials)
                    """
                )
            )
        }
        return ValidationReport(file: file, diagnostics: diagnostics, json: parsed.value)
    }
}

/// The checks on one statement.
private struct StatementChecker {
    var path: JSONPath

    func check(_ statement: JSONValue) -> [Diagnostic] {
        guard let object = statement.objectValue else {
            return [typeError(at: path, expected: "object", got: statement)]
        }
        var diagnostics = unknownKeys(in: object, at: path, known: ["relation", "target"])
        diagnostics += checkRelation(object["relation"])
        diagnostics += checkTarget(object["target"])
        return diagnostics
    }

    private func checkRelation(_ value: JSONValue?) -> [Diagnostic] {
        let relationPath = path.appending("relation")
        guard let value else { return [missing("relation", at: path)] }
        guard let relations = value.arrayValue else {
            return [typeError(at: relationPath, expected: "array", got: value)]
        }
        guard !relations.isEmpty else {
            return [
                .error("assetlinks.relation", at: relationPath, "relation is empty, so the statement grants nothing")
            ]
        }
        return relations.enumerated().compactMap { offset, relation in
            let itemPath = relationPath.appending(offset)
            guard let text = relation.stringValue else {
                return typeError(at: itemPath, expected: "string", got: relation)
            }
            guard !AssetLinksValidator.knownRelations.contains(text) else { return nil }
            return .warning(
                "assetlinks.relation",
                at: itemPath,
                """
                unknown relation \(quoted(text)); Android acts on \
                \(AssetLinksValidator.knownRelations.sorted().map(quoted).joined(separator: " and ")) only
                """
            )
        }
    }

    private func checkTarget(_ value: JSONValue?) -> [Diagnostic] {
        let targetPath = path.appending("target")
        guard let value else { return [missing("target", at: path)] }
        guard let target = value.objectValue else { return [typeError(at: targetPath, expected: "object", got: value)] }
        switch target["namespace"] {
        case nil:
            return [missing("namespace", at: targetPath)]
        case .string("android_app"):
            return unknownKeys(
                in: target,
                at: targetPath,
                known: ["namespace", "package_name", "sha256_cert_fingerprints"]
            )
                + checkPackageName(target["package_name"], at: targetPath)
                + checkFingerprints(target["sha256_cert_fingerprints"], at: targetPath)
        case .string("web"):
            return unknownKeys(in: target, at: targetPath, known: ["namespace", "site"])
                + checkSite(target["site"], at: targetPath)
        case .string(let other):
            return [
                .error(
                    "assetlinks.namespace",
                    at: targetPath.appending("namespace"),
                    "unknown namespace \(quoted(other)); a target is either \"android_app\" or \"web\""
                )
            ]
        case let other?:
            return [typeError(at: targetPath.appending("namespace"), expected: "string", got: other)]
        }
    }

    private func checkPackageName(_ value: JSONValue?, at targetPath: JSONPath) -> [Diagnostic] {
        guard let value else { return [missing("package_name", at: targetPath)] }
        let namePath = targetPath.appending("package_name")
        guard let name = value.stringValue else { return [typeError(at: namePath, expected: "string", got: value)] }
        guard !AssetLinksValidator.isPackageName(name) else { return [] }
        return [
            .error(
                "assetlinks.package-name",
                at: namePath,
                """
                \(quoted(name)) is not an Android package name: two or more dot-separated parts, each a letter \
                followed by letters, digits or underscores
                """
            )
        ]
    }

    private func checkFingerprints(_ value: JSONValue?, at targetPath: JSONPath) -> [Diagnostic] {
        guard let value else { return [missing("sha256_cert_fingerprints", at: targetPath)] }
        let listPath = targetPath.appending("sha256_cert_fingerprints")
        guard let fingerprints = value.arrayValue else {
            return [typeError(at: listPath, expected: "array", got: value)]
        }
        guard !fingerprints.isEmpty else {
            return [
                .error("assetlinks.fingerprint", at: listPath, "no fingerprint is listed, so no signed app can match")
            ]
        }
        return fingerprints.enumerated().compactMap { offset, fingerprint in
            let itemPath = listPath.appending(offset)
            guard let text = fingerprint.stringValue else {
                return typeError(at: itemPath, expected: "string", got: fingerprint)
            }
            switch AssetLinksValidator.fingerprintShape(text) {
            case .uppercase:
                return nil
            case .lowercase:
                return .warning(
                    "assetlinks.fingerprint",
                    at: itemPath,
                    "the fingerprint uses lowercase hex; Google's tools write uppercase, which every verifier accepts"
                )
            case .malformed:
                return .error(
                    "assetlinks.fingerprint",
                    at: itemPath,
                    """
                    \(quoted(text)) is not a SHA-256 fingerprint: expected 32 two-digit hex bytes separated by \
                    colons (AA:BB:…), as keytool -list -v prints it
                    """
                )
            }
        }
    }

    private func checkSite(_ value: JSONValue?, at targetPath: JSONPath) -> [Diagnostic] {
        guard let value else { return [missing("site", at: targetPath)] }
        let sitePath = targetPath.appending("site")
        guard let site = value.stringValue else { return [typeError(at: sitePath, expected: "string", got: value)] }
        let origin = site.hasSuffix("/") ? String(site.dropLast()) : site
        let parts = origin.split(separator: "://", maxSplits: 1)
        let isOrigin =
            parts.count == 2 && ["http", "https"].contains(parts[0].lowercased()) && !parts[1].isEmpty
            && !parts[1].contains(where: { "/?#@ ".contains($0) })
        guard !isOrigin else { return [] }
        return [
            .error(
                "assetlinks.site",
                at: sitePath,
                "\(quoted(site)) is not a web origin; site must be a scheme and host such as \"https://example.com\""
            )
        ]
    }

    // MARK: - Helpers

    private func missing(_ key: String, at parent: JSONPath) -> Diagnostic {
        .error("assetlinks.required", at: parent, "missing required key \(quoted(key))")
    }

    private func typeError(at path: JSONPath, expected: String, got value: JSONValue) -> Diagnostic {
        .error("assetlinks.type", at: path, "expected \(expected), got \(value.typeName)")
    }

    private func unknownKeys(in object: JSONObject, at path: JSONPath, known: Set<String>) -> [Diagnostic] {
        object.keys.filter { !known.contains($0) }.map { key in
            .warning(
                "assetlinks.unknown-key",
                at: path.appending(key),
                "unknown key \(quoted(key)); Android ignores it"
            )
        }
    }
}

extension AssetLinksValidator {
    /// An Android application ID: two or more dot-separated parts, each a
    /// letter followed by letters, digits or underscores.
    static func isPackageName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return false }
        return parts.allSatisfy { part in
            guard let first = part.unicodeScalars.first, isLetter(first) else { return false }
            return part.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) || $0 == "_" }
        }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    enum FingerprintShape {
        case uppercase
        case lowercase
        case malformed
    }

    /// 32 colon-separated bytes of two hex digits each.
    static func fingerprintShape(_ text: String) -> FingerprintShape {
        let bytes = text.split(separator: ":", omittingEmptySubsequences: false)
        guard bytes.count == 32, bytes.allSatisfy({ $0.utf8.count == 2 && $0.allSatisfy(\.isHexDigit) }) else {
            return .malformed
        }
        return text.contains(where: \.isLowercase) ? .lowercase : .uppercase
    }
}
