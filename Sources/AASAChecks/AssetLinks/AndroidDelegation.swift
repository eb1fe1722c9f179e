import AASAKit

/// One app a host delegates a relation to: who, with which signing
/// certificates, and which file said so (the host's own or an include).
public struct AndroidDelegation: Sendable, Hashable {
    /// `handle_all_urls`, `get_login_creds`: the relation's detail after `common.`.
    public var relation: String
    public var packageName: String
    public var fingerprints: [String]
    /// The URL of the file holding the statement.
    public var source: String

    public init(relation: String, packageName: String, fingerprints: [String], source: String) {
        self.relation = relation
        self.packageName = packageName
        self.fingerprints = fingerprints
        self.source = source
    }

    /// The relations the report lists: App Links and credential sharing.
    static let reported = [
        (AssetLinksRelation.handleAllURLs, "handle_all_urls"), (AssetLinksRelation.getLoginCreds, "get_login_creds"),
    ]

    /// The delegations of `file` (fetched from `source`), in file order,
    /// one per relation and package with the fingerprints of all its statements.
    static func all(in file: AssetLinksFile, source: String) -> [AndroidDelegation] {
        reported.flatMap { relation, name in
            file.packages(granted: relation).map { package in
                AndroidDelegation(
                    relation: name,
                    packageName: package,
                    fingerprints: file.fingerprints(of: package, granted: relation),
                    source: source
                )
            }
        }
    }

    /// `{"relation", "package", "fingerprints", "source"}`.
    public var json: JSONValue {
        [
            "relation": .string(relation), "package": .string(packageName),
            "fingerprints": .array(fingerprints.map(JSONValue.string)), "source": .string(source),
        ]
    }
}
