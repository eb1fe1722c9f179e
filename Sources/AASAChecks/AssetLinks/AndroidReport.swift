import AASAKit

/// What a host's `assetlinks.json` says, beyond pass and fail: the apps it
/// delegates to and what each include contributed.
public struct AndroidReport: Sendable {
    /// The URL fetched.
    public var url: String
    /// Whether a statement list was served (present, valid or not).
    public var served: Bool
    /// Delegations Google would act on: empty when the file has errors,
    /// since Google then rejects all of it.
    public var delegations: [AndroidDelegation]
    public var includes: [IncludedFile]

    public init(url: String, served: Bool, delegations: [AndroidDelegation] = [], includes: [IncludedFile] = []) {
        self.url = url
        self.served = served
        self.delegations = delegations
        self.includes = includes
    }

    /// The packages granted App Links.
    public var appLinkPackages: [String] {
        delegations.filter { $0.relation == "handle_all_urls" }.map(\.packageName)
    }

    /// `{"url", "served", "delegations": [...], "includes": [...]}`.
    public var json: JSONValue {
        [
            "url": .string(url), "served": .bool(served), "delegations": .array(delegations.map(\.json)),
            "includes": .array(includes.map(\.json)),
        ]
    }
}
