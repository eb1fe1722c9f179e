/// What `aasa check` expects of a host's `assetlinks.json`.
public struct AndroidExpectations: Sendable, Hashable {
    /// Whether the file must be there.
    public enum Presence: Sendable, Hashable {
        /// Not fetched at all (`--no-assetlinks`: a host with no Android app).
        case notChecked
        /// Checked when served; a host that serves none is a warning.
        case optional
        /// A host that serves none fails (`--assetlinks`, `--package`, `--fingerprint`).
        case required
    }

    public var presence: Presence
    /// Packages that must be granted `handle_all_urls` (`--package`).
    public var packages: [String]
    /// Fingerprints, in Google's uppercase spelling, that must be listed for
    /// every package of ``packages`` (or for some package when none is named).
    public var fingerprints: [String]

    /// Packages or fingerprints make the file required.
    public init(presence: Presence = .optional, packages: [String] = [], fingerprints: [String] = []) {
        self.presence = packages.isEmpty && fingerprints.isEmpty ? presence : .required
        self.packages = packages
        self.fingerprints = fingerprints
    }

    /// Whether anything about delegations was asked for.
    public var expectsDelegation: Bool { !packages.isEmpty || !fingerprints.isEmpty }
}
