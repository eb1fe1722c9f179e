/// The association files a link-test run reads, and which one serves each
/// URL's host.
///
/// Either one file that serves every host (a single `--file` with no
/// domain: the list's URLs are all taken to be served by it), or files by
/// host name as a directory laid out for `aasa serve` provides them: the
/// exact host first, else the most specific `*.` wildcard, as the server
/// picks them.
public struct LinkTestSites: Sendable {
    /// One association file as the run sees it.
    public struct Site: Sendable {
        /// What the file is, for messages: its path, or the host it serves.
        public var name: String
        /// The file's contents as the system reads them, or why the system
        /// uses none of it.
        public var content: Content

        public enum Content: Sendable {
            case file(AASAFile)
            /// The system ignores the whole file (too large, not JSON): no
            /// URL served by it opens an app.
            case unusable(String)
            /// The host (or `*.` wildcard) serves no association file, only
            /// `assetlinks.json`: no URL of it opens an iOS app.
            case absent(host: String)
        }

        /// The host's `assetlinks.json`, which judges Android entries;
        /// `nil` when the host has none.
        public var assetLinks: AssetLinks?

        /// An `assetlinks.json` as a link test sees it.
        public enum AssetLinks: Sendable {
            /// The file, with its path for messages.
            case file(AssetLinksFile, name: String)
            /// Android reads none of it (not JSON): no App Link verifies.
            case unusable(String)
        }

        public init(name: String, content: Content, assetLinks: AssetLinks? = nil) {
            self.name = name
            self.content = content
            self.assetLinks = assetLinks
        }

        /// Why a host with ``Content/absent(host:)`` opens no iOS app.
        public static func noAssociationFile(host: String) -> String {
            "no apple-app-site-association for \(host) (it serves only assetlinks.json)"
        }

        /// The file, when the system can use it.
        public var file: AASAFile? {
            if case .file(let file) = content { return file }
            return nil
        }
    }

    private enum Lookup: Sendable {
        case everyHost(Site)
        case byHost(exact: [String: Site], wildcards: [String: Site])
    }

    private let lookup: Lookup

    /// One file taken to serve every host the list mentions.
    public static func everyHost(_ site: Site) -> LinkTestSites {
        LinkTestSites(lookup: .everyHost(site))
    }

    /// Files by host name (case-insensitive); a name starting with `*.`
    /// serves every subdomain of the rest that has no file of its own.
    public init(byHost sites: [String: Site]) {
        var exact: [String: Site] = [:]
        var wildcards: [String: Site] = [:]
        for (name, site) in sites {
            let name = name.lowercased()
            if name.hasPrefix("*.") {
                wildcards[String(name.dropFirst(2))] = site
            } else {
                exact[name] = site
            }
        }
        self.init(lookup: .byHost(exact: exact, wildcards: wildcards))
    }

    private init(lookup: Lookup) {
        self.lookup = lookup
    }

    /// Whether a single file serves every host.
    public var servesEveryHost: Bool {
        if case .everyHost = lookup { return true }
        return false
    }

    /// The file serving `host`, with the name it is keyed by (the host, or
    /// its `*.` wildcard); `nil` when no file serves it.
    public func site(for host: String) -> (key: String, site: Site)? {
        switch lookup {
        case .everyHost(let site):
            return (site.name, site)
        case .byHost(let exact, let wildcards):
            let host = host.lowercased()
            if let site = exact[host] { return (host, site) }
            var rest = Substring(host)
            while let dot = rest.firstIndex(of: ".") {
                rest = rest[rest.index(after: dot)...]
                // A wildcard never covers a bare top-level label.
                guard rest.contains(".") else { break }
                if let site = wildcards[String(rest)] { return ("*." + rest, site) }
            }
            return nil
        }
    }

    /// The host names with a file, sorted, for messages.
    public var hostNames: [String] {
        switch lookup {
        case .everyHost(let site): [site.name]
        case .byHost(let exact, let wildcards): (exact.keys.sorted() + wildcards.keys.sorted().map { "*." + $0 })
        }
    }
}
