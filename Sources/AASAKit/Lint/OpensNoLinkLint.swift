/// Finds `applinks` that are well-formed yet open no link at all: the file
/// or an app entry says "Universal Links" and the system opens nothing.
///
/// - `lint.no-details`: `applinks` without `details` associates no app
///   (an empty `details` is `lint.empty-details`).
/// - `lint.no-rules`: an entry names apps but has no rule: `components` is
///   empty, or it has neither `components` nor `paths`. No rule matches, so
///   no URL opens those apps.
/// - `lint.only-exclusions`: every rule of an entry is an exclusion. A URL
///   no rule matches does not open the app either, so nothing does.
///
/// An entry whose apps all appear in an earlier entry decides for no app
/// (`lint.duplicate-app-id` reports it), and one naming no app is
/// `lint.no-app-ids`: neither is reported again here. Empty `components`
/// beside `paths` is already `lint.paths-ignored`, whose message says so.
enum OpensNoLinkLint {
    /// The findings for `file`, in file order.
    static func lint(_ file: AASAFile) -> [Diagnostic] {
        guard let appLinks = file.appLinks else { return [] }
        guard file.json["applinks"]?["details"] != nil else {
            return [
                .warning(
                    "lint.no-details",
                    at: appLinks.path,
                    "applinks has no details: no app is associated, so no link opens an app"
                )
            ]
        }
        var claimed = Set<String>()
        var diagnostics: [Diagnostic] = []
        for detail in appLinks.details {
            let apps = detail.appIDs.filter { claimed.insert($0).inserted }
            guard !apps.isEmpty else { continue }
            if let finding = finding(for: detail, apps: apps) {
                diagnostics.append(finding)
            }
        }
        return diagnostics
    }

    private static func finding(for detail: AppLinksDetail, apps: [String]) -> Diagnostic? {
        // The message's parts, built only for a finding: this runs for
        // every entry of every file a load validates.
        var opensNothing: String { "so \(apps.joined(separator: ", ")) \(apps.count == 1 ? "opens" : "open") no link" }
        let fix = "list the URLs the app handles as components"
        guard !detail.rules.isEmpty else {
            switch detail.rulesSource {
            case .components:
                guard detail.json["paths"] == nil else { return nil }
                return .warning(
                    "lint.no-rules",
                    at: detail.path.appending("components"),
                    "components is empty, \(opensNothing); \(fix)"
                )
            case .paths:
                return .warning(
                    "lint.no-rules",
                    at: detail.path.appending("paths"),
                    "paths is empty, \(opensNothing); \(fix)"
                )
            case .none:
                let missing = detail.isLegacyDictionaryValue ? "no paths" : "neither components nor paths"
                return .warning("lint.no-rules", at: detail.path, "this entry has \(missing), \(opensNothing); \(fix)")
            }
        }
        guard detail.rules.allSatisfy(\.isExclusion) else { return nil }
        return .warning(
            "lint.only-exclusions",
            at: detail.path.appending(detail.rulesSource == .paths ? "paths" : "components"),
            """
            every rule of this entry is an exclusion, \(opensNothing): a URL no rule matches does not open \
            the app either; add the rules that open it after the exclusions
            """
        )
    }
}

extension AppLinksDetail {
    /// Whether the entry is a value of the legacy dictionary form, keyed by
    /// its app ID (where `paths` is the only key the system reads).
    fileprivate var isLegacyDictionaryValue: Bool {
        if case .key = path.components.last { return true }
        return false
    }
}
