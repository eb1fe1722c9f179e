/// Turns a violation of the bundled `assetlinks.json` schema into a finding
/// with a stable `assetlinks.*` code, the rule Google applies, and the
/// spelling probably meant.
///
/// The schema decides *whether* a value is wrong (so the published schema
/// and the validator cannot disagree); this type only words it, by where the
/// value sits in the file.
enum AssetLinksViolationReader {
    /// Appended to errors outside dynamic rules: the consequence, once.
    static let wholeFile = "Google rejects the whole file"

    static func diagnostic(for violation: SchemaViolation, in json: JSONValue) -> Diagnostic {
        let shape = violation.path.components.map { component -> String in
            if case .key(let key) = component { return key }
            return "[]"
        }
        let text = json.value(at: violation.path)?.stringValue ?? ""
        let path = violation.path
        if isInRuleSet(violation) {
            return ruleSetDiagnostic(for: violation, shape: shape)
        }
        switch (shape.joined(separator: " "), violation.keyword) {
        case ("", "type"):
            return .error(
                "assetlinks.type",
                at: path,
                "\(violation.message); assetlinks.json must be an array of statements"
            )
        case ("", "minItems"):
            return .error(
                "assetlinks.empty",
                at: path,
                "the file has no statements; Google rejects an empty list, so no app or site is associated"
            )
        case (_, "false") where shape.count == 2:
            return .error(
                "assetlinks.statement",
                at: path,
                """
                an include statement cannot also have \(quoted(shape[1])): a statement is either direct \
                (relation and target) or an include; \(wholeFile)
                """
            )
        case ("[] include", _):
            return .error(
                "assetlinks.include",
                at: path,
                "\(violation.keyword == "type" ? violation.message : "\(quoted(text)) is not an http or https URL"); \(wholeFile)"
            )
        case ("[] relation", "minItems"):
            return .error(
                "assetlinks.relation",
                at: path,
                "the relation list is empty, so the statement grants nothing; \(wholeFile)"
            )
        case ("[] relation []", "pattern"):
            return spelling("assetlinks.relation", at: path, text, AssetLinksRelation.problem(with: text), "a relation")
        case ("[] target namespace", "enum"):
            var message = "\(violation.message); a target's namespace is \"android_app\" or \"web\""
            let namespaces = ["android_app", "web"]
            let lowered = text.lowercased()
            let prefixed = lowered.isEmpty ? nil : namespaces.first { $0.hasPrefix(lowered) }
            if let close = SchemaMessages.closest(to: text, among: namespaces) ?? prefixed {
                message += "; did you mean \(quoted(close))?"
            }
            return .error("assetlinks.namespace", at: path, "\(message); \(wholeFile)")
        case ("[] target package_name", "pattern"):
            return spelling(
                "assetlinks.package-name",
                at: path,
                text,
                AndroidPackageName.problem(with: text),
                "an Android package name"
            )
        case ("[] target sha256_cert_fingerprints", "minItems"):
            return .error(
                "assetlinks.fingerprint",
                at: path,
                "no fingerprint is listed, so no signed app can match; \(wholeFile)"
            )
        case ("[] target sha256_cert_fingerprints []", "pattern"):
            return spelling(
                "assetlinks.fingerprint",
                at: path,
                text,
                CertificateFingerprint.problem(with: text),
                "a SHA-256 certificate fingerprint"
            )
        case ("[] target site", "pattern"):
            return spelling("assetlinks.site", at: path, text, WebSiteOrigin.problem(with: text), "a web origin")
        case (_, "required"):
            return .error("assetlinks.required", at: path, "\(violation.message); \(wholeFile)")
        default:
            return .error("assetlinks.type", at: path, "\(violation.message); \(wholeFile)")
        }
    }

    /// Whether a violation lies inside a direct statement's
    /// `relation_extensions`, where Android falls back rather than Google
    /// rejecting the file. (On an include the key itself is the error.)
    static func isInRuleSet(_ violation: SchemaViolation) -> Bool {
        let components = violation.path.components
        guard components.count >= 2, components[1] == .key(DynamicRuleSet.extensionsKey) else { return false }
        return !(components.count == 2 && violation.keyword == "false")
    }

    private static func spelling(
        _ code: String,
        at path: JSONPath,
        _ text: String,
        _ problem: SpellingProblem,
        _ what: String
    ) -> Diagnostic {
        .error(code, at: path, "\(quoted(text)) is not \(what): \(problem.message); \(wholeFile)")
    }

    /// Anything wrong inside `relation_extensions`: Google keeps the file,
    /// but Android ignores the statement's rules and uses the intent filters,
    /// which silently opens every URL they declare, excluded ones included.
    private static func ruleSetDiagnostic(for violation: SchemaViolation, shape: [String]) -> Diagnostic {
        var message = violation.message
        let key = shape.last ?? ""
        switch (violation.keyword, key) {
        case ("additionalProperties", "caseSensitive"), ("additionalProperties", "percentEncoded"):
            message =
                "unknown key \(quoted(key)): Android's dynamic rules have no such flag and always compare the "
                + "decoded URL case-sensitively"
        case ("additionalProperties", _):
            // The schema's own wording speaks of Apple's system; say it for Android.
            let known = shape.count == 4 ? [DynamicRuleSet.componentsKey] : DynamicRule.keys
            message = "unknown key \(quoted(key))"
            if let close = SchemaMessages.closest(to: key, among: known) {
                message += " (did you mean \(quoted(close))?)"
            }
        case ("type", "?"):
            message += "; on Android \"?\" is an object of parameter name to value pattern"
        default:
            break
        }
        return .error(
            "assetlinks.dynamic-rules",
            at: violation.path,
            """
            \(message); Android ignores this statement's dynamic rules and falls back to the app's intent filters, \
            opening every URL they declare
            """
        )
    }
}
