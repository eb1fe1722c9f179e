extension LinkTestPlan {
    /// Checks the Android packages given (for the run, and by entries)
    /// against the `assetlinks.json` files serving the Android entries'
    /// hosts, and returns the package for Android entries that name none.
    ///
    /// As for Apple apps: a package no file grants App Links would fail
    /// every URL for the same reason, so it is one usage error with the
    /// likeliest fix; with no package given, the files must grant exactly one.
    func checkPackages(_ package: String?, sites: LinkTestSites) throws(LinkTestSetupError) -> String? {
        let android = itemIndices { $0.pointee.entry.platform == .android }.map { items[$0] }
        guard !android.isEmpty else { return package }
        var granted: [String] = []
        var readable = false
        for item in android {
            guard case .success(let url) = item.url, let (_, site) = sites.site(for: url.host),
                case .file(let file, _)? = site.assetLinks
            else { continue }
            readable = true
            for name in file.appLinkPackages where !granted.contains(name) { granted.append(name) }
        }
        // With no readable file, each entry fails for its own reason.
        guard readable else { return package }
        let given = ([package] + android.map(\.entry.package)).compactMap { $0 }
        var unknown: [String] = []
        for name in given where !granted.contains(name) && !unknown.contains(name) { unknown.append(name) }
        if let first = unknown.first {
            throw .unknownPackage(
                first,
                granted: granted,
                suggestion: SchemaMessages.closest(to: first, among: granted)
            )
        }
        guard package == nil, android.contains(where: { $0.entry.package == nil }) else { return package }
        guard granted.count == 1 else { throw .noPackageGiven(granted: granted) }
        return granted[0]
    }
}
