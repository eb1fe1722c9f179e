import AASAKit

extension MatchCommand {
    /// `--package`: the host's `assetlinks.json` instead of its AASA file.
    func evaluateAndroid(package: String) throws(InputError) -> AndroidMatchEvaluation {
        guard appID == nil, bundleID == nil else {
            throw InputError("give --package (Android) or --bundle-id/--app-id (Apple), not both")
        }
        let parsedURL: AASAURL
        do {
            parsedURL = try AASAURL(url)
        } catch {
            throw InputError("cannot evaluate \(url): \(error.description)")
        }
        let domain = (self.domain ?? parsedURL.host).lowercased()
        let (name, file) = try assetLinksFile(for: domain)
        // With --dir the directory already picked the host's file; with
        // --file, --domain says which host it serves.
        let matcher = DynamicLinkMatcher(file: file, host: self.file == nil ? nil : self.domain)
        guard matcher.packages.contains(package) else {
            let granted =
                matcher.packages.isEmpty ? "it grants none" : "granted: \(matcher.packages.joined(separator: ", "))"
            var message =
                "\(name): package \(package) is not granted App Links (\(AssetLinksRelation.handleAllURLs)); \(granted)"
            if let close = Suggestion.closest(to: package, in: matcher.packages) {
                message += "; did you mean \(close)?"
            }
            throw InputError(message)
        }
        return AndroidMatchEvaluation(
            url: parsedURL,
            domain: domain,
            package: package,
            result: matcher.evaluate(parsedURL, package: package),
            verified: matcher.rejection == nil && (matcher.host == nil || matcher.host == parsedURL.host.lowercased())
        )
    }

    private func assetLinksFile(for domain: String) throws(InputError) -> (name: String, file: AssetLinksFile) {
        let path: String
        switch (file, dir) {
        case (let file?, nil):
            path = file
        case (nil, let dir?):
            let sites = try InputFiles.linkTestSites(directory: dir)
            guard let (_, site) = sites.site(for: domain) else {
                throw InputError("\(dir): no files for \(domain) (hosts: \(sites.hostNames.joined(separator: ", ")))")
            }
            switch site.assetLinks {
            case nil: throw InputError("\(dir): \(domain) serves no assetlinks.json")
            case .unusable(let reason)?: throw InputError(reason)
            case .file(let parsed, let name)?: return (name, parsed)
            }
        case (nil, nil):
            throw InputError("give the assetlinks.json file with --file, or a directory with --dir")
        case (_?, _?):
            throw InputError("give --file or --dir, not both")
        }
        let bytes = try InputFiles.bytes(path, what: "assetlinks.json")
        guard let parsed = AssetLinksFile(bytes: bytes) else {
            throw InputError("\(path): not JSON; Android verifies no App Link from it")
        }
        return (path, parsed)
    }
}
