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
            if let missing = Self.missingAppIDs(item, at: path) {
                diagnostics.append(missing)
            }
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
                var message =
                    "this entry has both paths and components; iOS 13 and later use components and ignore paths"
                if components.isEmpty {
                    message += " (components is empty, so this entry matches no URL at all)"
                }
                diagnostics.append(.warning("lint.paths-ignored", at: path.appending("paths"), message))
            }
        }
        return diagnostics
    }

    /// An array-form entry naming no app (empty `appIDs`, or neither key):
    /// legal, but its rules apply to nothing.
    static func missingAppIDs(_ item: JSONObject, at path: JSONPath) -> Diagnostic? {
        guard case .index = path.components.last else { return nil }
        let message = "this entry lists no app ID, so its rules apply to no app"
        switch item["appIDs"] {
        case .array(let appIDs):
            return appIDs.isEmpty ? .warning("lint.no-app-ids", at: path.appending("appIDs"), message) : nil
        default:
            return item["appID"]?.stringValue == nil ? .warning("lint.no-app-ids", at: path, message) : nil
        }
    }

    private func emptyDetails(at path: JSONPath) -> Diagnostic {
        .warning("lint.empty-details", at: path, "details is empty: no app is associated, so no link opens an app")
    }
}
