/// What Google accepts in an `assetlinks.json` but is almost certainly a
/// mistake: warnings (and advice), never errors; the schema holds the errors.
///
/// Lints never fail: anything they do not understand they skip, because the
/// schema reports it already.
struct AssetLinksLints {
    var file: AssetLinksFile
    /// The host the file is served for, when known.
    var host: String?

    static let statementKeys = ["relation", "target", "include", DynamicRuleSet.extensionsKey]
    static let appKeys = ["namespace", "package_name", "sha256_cert_fingerprints"]
    static let webKeys = ["namespace", "site"]

    func diagnostics() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (offset, value) in (file.json.arrayValue ?? []).enumerated() {
            guard let object = value.objectValue else { continue }
            let path = JSONPath([.index(offset)])
            // On an include, the other statement keys are schema errors already.
            diagnostics += unknownKeys(in: object, at: path, known: Self.statementKeys)
            diagnostics += relations(object["relation"], at: path.appending("relation"))
            if let target = object["target"]?.objectValue {
                diagnostics += targetFindings(target, at: path.appending("target"))
            }
            if let include = object["include"]?.stringValue {
                diagnostics += includeFindings(include, at: path.appending("include"))
            }
        }
        // An include may grant App Links from the file it names.
        if !file.statements.isEmpty, file.appLinkPackages.isEmpty, !file.statements.contains(where: { $0.isInclude }) {
            diagnostics.append(
                .info(
                    "assetlinks.no-app-links",
                    at: .root,
                    """
                    no statement grants \(AssetLinksRelation.handleAllURLs) to an android_app, so Android verifies \
                    no App Links for this site (fine if the file is only for sharing credentials)
                    """
                )
            )
        }
        return diagnostics
    }

    private func unknownKeys(in object: JSONObject, at path: JSONPath, known: [String]) -> [Diagnostic] {
        object.keys.filter { !known.contains($0) }.map { key in
            var message = "unknown key \(quoted(key)); Google ignores it"
            if let close = SchemaMessages.closest(to: key, among: known) {
                message += "; did you mean \(quoted(close))?"
            }
            return .warning("assetlinks.unknown-key", at: path.appending(key), message)
        }
    }

    /// Valid relations that are not well-known: a near miss of a well-known
    /// one is a typo that grants nothing Android acts on.
    private func relations(_ value: JSONValue?, at path: JSONPath) -> [Diagnostic] {
        (value?.arrayValue ?? []).enumerated().compactMap { offset, item in
            guard let text = item.stringValue, AssetLinksRelation.isValid(text),
                !AssetLinksRelation.wellKnown.contains(text)
            else { return nil }
            if let meant = AssetLinksRelation.likelyMeant(text) {
                return .warning(
                    "assetlinks.relation-typo",
                    at: path.appending(offset),
                    "\(quoted(text)) is not a relation Android acts on; did you mean \(quoted(meant))?"
                )
            }
            return .info(
                "assetlinks.unknown-relation",
                at: path.appending(offset),
                """
                \(quoted(text)) is a valid relation but not one Android acts on \
                (\(AssetLinksRelation.wellKnown.map(quoted).joined(separator: ", ")))
                """
            )
        }
    }

    private func targetFindings(_ target: JSONObject, at path: JSONPath) -> [Diagnostic] {
        switch target["namespace"]?.stringValue {
        case "android_app":
            return unknownKeys(in: target, at: path, known: Self.appKeys)
                + duplicateFingerprints(
                    target["sha256_cert_fingerprints"],
                    at: path.appending("sha256_cert_fingerprints")
                )
        case "web":
            var diagnostics = unknownKeys(in: target, at: path, known: Self.webKeys)
            if let host, let site = target["site"]?.stringValue, let origin = WebSiteOrigin(site),
                origin.isSite(ofHost: host)
            {
                diagnostics.append(
                    .warning(
                        "assetlinks.self-site",
                        at: path.appending("site"),
                        "the target is this file's own site (\(origin)); a site needs no statement about itself"
                    )
                )
            }
            return diagnostics
        case "ios_app":
            return [
                .warning(
                    "assetlinks.ios-app",
                    at: path.appending("namespace"),
                    """
                    the ios_app namespace appears in the protocol text but neither Android nor Google's API resolves \
                    it; iOS reads apple-app-site-association instead
                    """
                )
            ]
        default:
            return []
        }
    }

    private func duplicateFingerprints(_ value: JSONValue?, at path: JSONPath) -> [Diagnostic] {
        var seen: [String: Int] = [:]
        var diagnostics: [Diagnostic] = []
        for (offset, item) in (value?.arrayValue ?? []).enumerated() {
            guard let text = item.stringValue, !text.isEmpty else { continue }
            let key = CertificateFingerprint.canonical(text) ?? text
            if let first = seen[key] {
                diagnostics.append(
                    .warning(
                        "assetlinks.duplicate-fingerprint",
                        at: path.appending(offset),
                        "the same fingerprint is already listed at index \(first); one of them was probably meant to be another certificate"
                    )
                )
            } else {
                seen[key] = offset
            }
        }
        return diagnostics
    }

    private func includeFindings(_ include: String, at path: JSONPath) -> [Diagnostic] {
        guard include.lowercased().hasPrefix("http://") else { return [] }
        return [
            .warning(
                "assetlinks.include-insecure",
                at: path,
                """
                Android follows an include over HTTPS only when the file itself came over HTTPS, which \
                assetlinks.json always does, so this http include is never followed
                """
            )
        ]
    }
}
