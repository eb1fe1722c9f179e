extension LinkTestPlan {
    /// Checks every app given (for the run, and by entries) against the
    /// files the run uses, and returns the app for entries that name none.
    ///
    /// An app that no file lists would fail every URL for the same reason,
    /// so it is one usage error with the likeliest fix instead. With no
    /// app given, the files must list exactly one.
    func checkApps(_ app: LinkTestApp?) throws(LinkTestSetupError) -> LinkTestApp? {
        // With no usable file, every result fails for its own reason
        // (no file, file unusable) and no app can be checked.
        guard !files.isEmpty, containsItem(where: { $0.pointee.entry.platform == .apple }) else { return app }
        let associationFiles = files.map(\.file)
        var given: [(app: LinkTestApp, source: UnknownApp.Source)] = app.map { [($0, .run)] } ?? []
        given += itemIndices { $0.pointee.entry.app != nil }.compactMap { index in
            let entry = items[index].entry
            return entry.app.map { ($0, .entry(file: entry.file, path: entry.path)) }
        }
        var unknown: [UnknownApp] = []
        for (app, source) in given {
            if let index = unknown.firstIndex(where: { $0.app == app }) {
                unknown[index].sources.append(source)
            } else if let problem = UnknownApp(app: app, sources: [source], files: associationFiles) {
                unknown.append(problem)
            }
        }
        guard unknown.isEmpty else { throw .unknownApps(unknown) }
        guard app == nil, containsItem(where: { $0.pointee.entry.app == nil && $0.pointee.entry.platform == .apple })
        else {
            return app
        }
        let listed = UnknownApp.listed(in: associationFiles)
        guard listed.count == 1 else {
            let linksFiles = files.filter { Self.looksLikeLinksFile($0.file) }.map(\.name)
            throw .noAppGiven(listed: listed, looksLikeLinksFile: linksFiles)
        }
        return .appID(listed[0])
    }

    /// A links file passed as the association file parses, lists no app,
    /// and has the links file's keys.
    private static func looksLikeLinksFile(_ file: AASAFile) -> Bool {
        ["deep_linkable_urls", "non_deep_linkable_urls", "links"].contains { file.json[$0] != nil }
    }
}

extension UnknownApp {
    /// The problem with `app` when none of `files` lists it in
    /// `applinks.details`; `nil` when one does.
    public init?(app: LinkTestApp, sources: [Source], files: [AASAFile]) {
        let listed = Self.listed(in: files)
        guard app.matching(listed).isEmpty else { return nil }
        self.init(app: app, sources: sources, listed: listed, suggestion: Self.suggestion(for: app, listed, files))
    }

    /// Every app ID the files list in `applinks.details`, once each, in order.
    static func listed(in files: [AASAFile]) -> [String] {
        var seen = Set<String>()
        return files.flatMap(\.appLinksAppIDs).filter { seen.insert($0).inserted }
    }

    private static func suggestion(for app: LinkTestApp, _ listed: [String], _ files: [AASAFile]) -> Suggestion? {
        switch app {
        case .appID(let id):
            if let full = LinkTestApp.bundleID(id).matching(listed).first { return .bundleID(id, listedAs: full) }
        case .bundleID(let id):
            if listed.contains(id) { return .appID(id) }
        }
        for file in files {
            let services = [
                ("webcredentials", file.webCredentials), ("appclips", file.appClips),
                ("activitycontinuation", file.activityContinuation),
            ]
            for case let (service, apps?) in services {
                if let appID = app.matching(apps).first { return .otherService(service, appID: appID) }
            }
        }
        switch app {
        case .appID(let id):
            return SchemaMessages.closest(to: id, among: listed).map { .similar(.appID($0)) }
        case .bundleID(let id):
            var seen = Set<String>()
            let bundleIDs = listed.compactMap { LinkTestApp.bundleID(of: $0).map(String.init) }
                .filter { seen.insert($0).inserted }
            return SchemaMessages.closest(to: id, among: bundleIDs).map { .similar(.bundleID($0)) }
        }
    }
}
