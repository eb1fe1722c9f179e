/// Catches the United Kingdom written `UK` where region codes are meant.
///
/// `$(region)` holds Foundation's ISO 3166-1 codes, where the United Kingdom
/// is `GB`: Apple's prose lists `UK`, but no `UK` URL ever matches it (§5).
/// Two triggers, chosen to be specific enough not to fire on ordinary files:
///
/// 1. the file uses the built-in `$(region)` and a component pattern also
///    names `UK` as a word of its own (`/UK/*`, `en-UK`): the author expects
///    `UK` URLs to be region URLs. Lowercase `uk` counts too unless the file
///    also uses `$(lang)`, where `uk` is Ukrainian.
/// 2. a `substitutionVariables` list of region codes holds `UK` but not `GB`.
///    A list is taken for region codes when its name mentions "region" or
///    "country", or when it holds at least two values, all two uppercase
///    letters. Such a list does match the text `UK`; the warning is that the
///    United Kingdom's code is `GB`, which it lacks.
struct RegionCodeLint: LintRule {
    func diagnostics(in context: LintContext) -> [Diagnostic] {
        patternDiagnostics(context) + variableDiagnostics(context)
    }

    private func patternDiagnostics(_ context: LintContext) -> [Diagnostic] {
        guard context.usesBuiltIn("region") else { return [] }
        let lowercaseCounts = !context.usesBuiltIn("lang")
        return context.patterns.compactMap { site in
            guard site.kind.expandsVariables else { return nil }
            let words = Self.letterWords(in: VariableReference.literalText(of: site.pattern))
            guard words.contains("UK") || (lowercaseCounts && words.contains("uk")) else { return nil }
            return .warning(
                "lint.region-code-uk",
                at: site.path,
                """
                this pattern names UK while the file uses $(region); $(region) holds ISO 3166-1 codes, where the \
                United Kingdom is GB, so URLs with UK never match $(region)
                """
            )
        }
    }

    private func variableDiagnostics(_ context: LintContext) -> [Diagnostic] {
        let variablesPath = LintContext.applinksPath.appending("substitutionVariables")
        return context.userVariables.members.compactMap { name, value in
            let values = value.arrayValue?.compactMap(\.stringValue) ?? []
            guard Self.isRegionList(name: name, values: values),
                let offset = values.firstIndex(where: { $0.uppercased() == "UK" }),
                !values.contains(where: { $0.uppercased() == "GB" })
            else { return nil }
            return .warning(
                "lint.region-code-uk",
                at: variablesPath.appending(name).appending(offset),
                """
                UK is not an ISO 3166-1 region code: the United Kingdom is GB, which this list lacks; it matches \
                the text UK only, never GB URLs built from region codes (and the built-in $(region) has no UK)
                """
            )
        }
    }

    static func isRegionList(name: String, values: [String]) -> Bool {
        let lowered = name.lowercased()
        if lowered.contains("region") || lowered.contains("country") { return true }
        return values.count >= 2
            && values.allSatisfy { value in
                value.unicodeScalars.count == 2 && value.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
            }
    }

    /// The maximal runs of ASCII letters in `text`.
    static func letterWords(in text: String) -> Set<String> {
        var words: Set<String> = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) {
                current.append(scalar)
            } else if !current.isEmpty {
                words.insert(String(current))
                current.removeAll()
            }
        }
        if !current.isEmpty { words.insert(String(current)) }
        return words
    }
}
