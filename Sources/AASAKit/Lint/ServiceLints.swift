/// Top-level checks: which services the file declares, and the legacy
/// `applinks.apps` key.
struct ServiceLints: LintRule {
    /// The services the system reads (§1).
    static let knownServices: Set<String> = [
        "applinks", "webcredentials", "appclips", "activitycontinuation", "authsrv",
    ]

    func diagnostics(in context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var recognised = false
        for key in context.root.keys {
            if Self.knownServices.contains(key) {
                recognised = true
                continue
            }
            var message = "unknown top-level key \(quoted(key)); the system ignores it"
            if let suggestion = closestMatch(to: key, in: Self.knownServices.sorted()) {
                message += " (did you mean \(quoted(suggestion))?)"
            }
            diagnostics.append(.warning("lint.unknown-service", at: JSONPath([.key(key)]), message))
        }
        if !recognised {
            diagnostics.append(
                .warning(
                    "lint.no-service",
                    at: .root,
                    """
                    the file declares none of the services the system reads (applinks, webcredentials, appclips, \
                    activitycontinuation), so it associates no app with this domain
                    """
                )
            )
        }
        if case .array(let apps) = context.applinks?["apps"], !apps.isEmpty {
            diagnostics.append(
                .warning(
                    "lint.legacy-apps",
                    at: LintContext.applinksPath.appending("apps"),
                    """
                    the legacy applinks.apps must be an empty array (iOS 9–12 reject anything else) and is ignored \
                    since iOS 13; list app IDs in details[].appIDs instead
                    """
                )
            )
        }
        return diagnostics
    }
}

/// A JSON string literal for a message, so odd keys stay readable.
func quoted(_ text: String) -> String {
    JSONValue.string(text).serialized()
}

/// The candidate closest to `word` when it is a plausible typo of it: same
/// letters in another case, or at most two edits away.
func closestMatch(to word: String, in candidates: [String]) -> String? {
    let lowered = word.lowercased()
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
        let distance = editDistance(lowered, candidate.lowercased(), limit: 2)
        if distance <= 2, distance < (best?.distance ?? Int.max) {
            best = (candidate, distance)
        }
    }
    return best?.candidate
}

/// Levenshtein distance over Unicode scalars, giving up (returning
/// `limit + 1`) as soon as it must exceed `limit`, so long keys cost little.
func editDistance(_ lhs: String, _ rhs: String, limit: Int) -> Int {
    let a = Array(lhs.unicodeScalars)
    let b = Array(rhs.unicodeScalars)
    guard abs(a.count - b.count) <= limit else { return limit + 1 }
    guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
        }
        guard let smallest = current.min(), smallest <= limit else { return limit + 1 }
        previous = current
    }
    return min(previous[b.count], limit + 1)
}
