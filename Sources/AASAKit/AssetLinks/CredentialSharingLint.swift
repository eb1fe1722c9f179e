/// Credential sharing configured for one platform only: an `assetlinks.json`
/// granting `delegate_permission/common.get_login_creds` while the same
/// host's `apple-app-site-association` lists no `webcredentials` app, or the
/// reverse. Each platform accepts its file alone, so nothing fails, but the
/// brand's users can sign in with saved passwords and passkeys on one phone
/// and not the other.
///
/// Needs both files of one host, so it runs where both are at hand (the
/// origin's loader, `aasa validate` on a served directory), not inside
/// either file's validator.
public struct CredentialSharingLint: Sendable {
    public init() {}

    /// Warnings for credential sharing that only one file of a host sets up.
    ///
    /// - Parameters:
    ///   - assetLinks: the host's `assetlinks.json`, read.
    ///   - assetLinksFile: its name for the findings about it.
    ///   - association: the host's `apple-app-site-association`, read.
    ///   - associationFile: its name for the findings about it.
    /// - Returns: `assetlinks.webcredentials-missing` on the assetlinks
    ///   statement, or `assetlinks.login-creds-missing` on the AASA
    ///   `webcredentials` service; empty when both or neither share.
    public func diagnostics(
        assetLinks: AssetLinksFile,
        assetLinksFile: String? = nil,
        association: AASAFile,
        associationFile: String? = nil
    ) -> [Diagnostic] {
        let androidSharing = assetLinks.statements.filter { statement in
            statement.grants(AssetLinksRelation.getLoginCreds) && statement.target?.packageName != nil
        }
        let appleApps = association.webCredentials ?? []
        if let statement = androidSharing.first, appleApps.isEmpty {
            let offset = statement.relations.firstIndex(of: AssetLinksRelation.getLoginCreds) ?? 0
            let packages = androidSharing.compactMap(\.target?.packageName)
            return [
                Diagnostic(
                    .warning,
                    code: "assetlinks.webcredentials-missing",
                    path: statement.path.appending("relation").appending(offset),
                    message: """
                        \(packages.map(quoted).joined(separator: ", ")) may use this site's saved credentials, but \
                        the host's apple-app-site-association lists no webcredentials app, so the iOS app cannot
                        """,
                    file: assetLinksFile
                )
            ]
        }
        if androidSharing.isEmpty, !appleApps.isEmpty {
            return [
                Diagnostic(
                    .warning,
                    code: "assetlinks.login-creds-missing",
                    path: JSONPath.root.appending("webcredentials"),
                    message: """
                        the iOS apps may use this site's saved credentials, but the host's assetlinks.json grants no \
                        Android app \(AssetLinksRelation.getLoginCreds), so the Android app cannot
                        """,
                    file: associationFile
                )
            ]
        }
        return []
    }
}
