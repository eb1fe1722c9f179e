/// Checks on the shape of `applinks.details` and its items: the legacy
/// dictionary form, an empty list, and keys the system ignores because a
/// newer spelling wins (`appIDs` over `appID`, `components` over `paths`).
struct DetailsLints: LintRule {
    func diagnostics(in context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let detailsPath = LintContext.applinksPath.appending("details")
        switch context.applinks?["details"] {
        case .object(let legacy):
            diagnostics.append(
                .warning(
                    "lint.legacy-details-dictionary",
                    at: detailsPath,
                    """
                    details written as a dictionary keyed by app ID is the deprecated iOS 9 form: the order of its \
                    entries is undefined, so which entry wins for a shared app ID is not predictable; use an array \
                    of objects with appIDs
                    """
                )
            )
            if legacy.isEmpty {
                diagnostics.append(emptyDetails(at: detailsPath))
            }
        case .array(let items) where items.isEmpty:
            diagnostics.append(emptyDetails(at: detailsPath))
        default:
            break
        }
        for (path, item) in context.detailItems {
            if item["appID"] != nil, case .array = item["appIDs"] {
                diagnostics.append(
                    .warning(
                        "lint.app-id-ignored",
                        at: path.appending("appID"),
                        "this entry has both appID and appIDs; the system uses appIDs and ignores appID"
                    )
                )
            }
            if item["paths"] != nil, case .array(let components) = item["components"] {
                var message = "this entry has both paths and components; iOS 13 and later use components and ignore paths"
                if components.isEmpty {
                    message += " (components is empty, so this entry matches no URL at all)"
                }
                diagnostics.append(.warning("lint.paths-ignored", at: path.appending("paths"), message))
            }
        }
        return diagnostics
    }

    private func emptyDetails(at path: JSONPath) -> Diagnostic {
        .warning("lint.empty-details", at: path, "details is empty: no app is associated, so no link opens an app")
    }
}
