import AASAKit
import Crypto
import Foundation

/// Something wrong found by a load: the file or directory, and why. A host
/// with an issue keeps serving its last good file.
public struct LoadIssue: Sendable, Hashable, CustomStringConvertible {
    /// The host directory concerned, when there is one.
    public var host: String?
    public var path: String
    public var message: String

    public var description: String { "\(path): \(message)" }
}

/// The result of one pass over the directory.
public struct LoadOutcome: Sendable {
    public var snapshot: SiteSnapshot
    /// Files and directories rejected by this load.
    public var issues: [LoadIssue]
    /// Lint warnings of files served anyway.
    public var warnings: [LoadIssue]
    /// Files read and validated (the rest were unchanged and reused).
    public var filesValidated: Int
}

/// Reads the served directory into a new snapshot, validating every file that
/// changed, and keeping, per host and file, the previous good version when the
/// new one fails. It never throws for a bad file, only reports; it throws
/// only when the directory itself cannot be read (then the caller keeps the
/// whole previous snapshot).
public struct SiteLoader: Sendable {
    public static let fileNames: [(ServedFile.Kind, String)] = [
        (.appleAppSiteAssociation, "apple-app-site-association"),
        (.assetLinks, "assetlinks.json"),
    ]

    let directory: String
    let hosts: ServerConfiguration.Hosts
    let tls: ServerConfiguration.TLS
    let cacheControl: String
    let requestCounts: RequestCountTable
    let validator: AASAValidator
    let assetLinksValidator: AssetLinksValidator

    public init(
        configuration: ServerConfiguration,
        validator: AASAValidator = AASAValidator(),
        requestCounts: RequestCountTable = RequestCountTable()
    ) {
        self.requestCounts = requestCounts
        self.directory = configuration.files.directory
        self.hosts = configuration.hosts
        self.tls = configuration.tls
        self.cacheControl = configuration.response.cacheControl
        self.validator = validator
        self.assetLinksValidator = AssetLinksValidator()
    }

    /// Loads the directory. `force` re-reads every file (SIGHUP); otherwise
    /// files whose stamp is unchanged since `previous` are reused.
    public func load(previous: SiteSnapshot, force: Bool) throws(FileSystemError) -> LoadOutcome {
        let root = try FileSystem.canonicalPath(directory)
        var pass = LoadPass(loader: self, root: root, previous: previous, force: force)
        for name in try FileSystem.directoryEntries(root) where !name.hasPrefix(".") {
            pass.visit(entry: name)
        }
        pass.resolveSymlinkAliases()
        pass.applyConfiguredAliases()
        return pass.finish()
    }
}

/// The mutable state of one load.
private struct LoadPass {
    let loader: SiteLoader
    let root: String
    let previous: SiteSnapshot
    let force: Bool

    var sites: [String: SiteHost] = [:]
    var rejected: [String: RejectedFile] = [:]
    var symlinkAliases: [(name: String, target: String, path: String)] = []
    var issues: [LoadIssue] = []
    var warnings: [LoadIssue] = []
    var filesValidated = 0

    init(loader: SiteLoader, root: String, previous: SiteSnapshot, force: Bool) {
        self.loader = loader
        self.root = root
        self.previous = previous
        self.force = force
    }

    mutating func visit(entry name: String) {
        let path = root + "/" + name
        let info: FileSystem.Info
        do {
            info = try FileSystem.linkInfo(path)
        } catch {
            issues.append(LoadIssue(host: name, path: path, message: error.reason))
            return
        }
        switch info.type {
        case .regular:
            return  // README.md and the like sit beside the host directories.
        case .directory, .symlink:
            break
        case .other(let kind):
            issues.append(LoadIssue(host: nil, path: path, message: "not a host directory (\(kind)); ignored"))
            return
        }
        guard let key = SiteKey(directoryName: name) else {
            issues.append(
                LoadIssue(
                    host: nil,
                    path: path,
                    message: "not a valid host name; a host directory is named like `example.com` or `*.example.com`"
                )
            )
            return
        }
        guard !sites.keys.contains(key.name), !symlinkAliases.contains(where: { $0.name == key.name }) else {
            issues.append(
                LoadIssue(host: key.name, path: path, message: "a second directory for host \(key.name); ignored")
            )
            return
        }
        if info.type == .symlink {
            recordSymlink(key: key, path: path)
            return
        }
        loadHost(key: key, path: path)
    }

    /// A symlinked directory is an alias of the sibling it points to. One
    /// pointing deeper inside the served directory is that host's directory
    /// (a Kubernetes ConfigMap volume links `host -> ..data/host`). One that
    /// leaves the served directory is refused.
    private mutating func recordSymlink(key: SiteKey, path: String) {
        let name = key.name
        do {
            let target = try FileSystem.canonicalPath(path)
            let parent = (target as NSString).deletingLastPathComponent
            guard target.hasPrefix(root + "/"), try FileSystem.info(target).type == .directory else {
                issues.append(
                    LoadIssue(
                        host: name,
                        path: path,
                        message: "symlink to \(target) leaves the served directory \(root); refused"
                    )
                )
                return
            }
            guard parent == root else {
                loadHost(key: key, path: target)
                return
            }
            guard let targetKey = SiteKey(directoryName: (target as NSString).lastPathComponent) else {
                issues.append(LoadIssue(host: name, path: path, message: "symlink to \(target), not a host directory"))
                return
            }
            symlinkAliases.append((name, targetKey.name, path))
        } catch {
            issues.append(LoadIssue(host: name, path: path, message: "unresolvable symlink: \(error.reason)"))
        }
    }

    private mutating func loadHost(key: SiteKey, path: String) {
        let previousHost = previous.sites[key.name]
        // One issue for a directory that cannot be searched (no `x`
        // permission), rather than one per file inside it.
        do {
            _ = try FileSystem.linkInfo(path + "/.")
        } catch {
            let kept = previousHost == nil ? "not served" : "the previous version stays served"
            issues.append(
                LoadIssue(
                    host: key.name,
                    path: path,
                    message: "cannot read the host directory: \(error.reason); \(kept)"
                )
            )
            sites[key.name] = previousHost
            return
        }
        var files: [ServedFile.Kind: ServedFile] = [:]
        for (kind, fileName) in SiteLoader.fileNames {
            let filePath = path + "/" + fileName
            let previousFile = previousHost?.file(kind)
            if let file = loadFile(kind: kind, path: filePath, host: key.name, previous: previousFile) {
                files[kind] = file
            }
        }
        guard !files.isEmpty else {
            if !issues.contains(where: { $0.host == key.name }) {
                issues.append(
                    LoadIssue(host: key.name, path: path, message: "no apple-app-site-association or assetlinks.json")
                )
            }
            return
        }
        let tls = loadIdentity(host: key.name, directory: path + "/tls", previous: previousHost?.tls)
        if let previousHost, previousHost.appleAppSiteAssociation === files[.appleAppSiteAssociation],
            previousHost.assetLinks === files[.assetLinks], previousHost.tls?.identity.chain == tls?.identity.chain
        {
            sites[key.name] = previousHost
            return
        }
        sites[key.name] = SiteHost(
            name: key.name,
            appleAppSiteAssociation: files[.appleAppSiteAssociation],
            assetLinks: files[.assetLinks],
            tls: tls,
            counts: loader.requestCounts.counts(for: key.name)
        )
    }

    /// The host's SNI certificate from `<host>/tls/{cert,key}.pem`, if it has
    /// a `tls` directory; a bad one keeps the previous.
    private mutating func loadIdentity(host: String, directory: String, previous: LoadedIdentity?) -> LoadedIdentity? {
        guard (try? FileSystem.linkInfo(directory))?.type == .directory else { return nil }
        return loadIdentity(
            certificatePath: directory + "/cert.pem",
            keyPath: directory + "/key.pem",
            host: host,
            previous: previous,
            label: "\(host)/tls/cert.pem"
        )
    }

    mutating func loadIdentity(
        certificatePath: String,
        keyPath: String,
        host: String?,
        previous: LoadedIdentity?,
        label: String
    ) -> LoadedIdentity? {
        do {
            return try LoadedIdentity.load(
                certificatePath: certificatePath,
                keyPath: keyPath,
                host: host,
                previous: previous,
                force: force
            )
        } catch {
            let kept = previous == nil ? "not used" : "the previous certificate stays in use"
            issues.append(LoadIssue(host: host, path: label, message: "\(error); \(kept)"))
            return previous
        }
    }

    /// The file to serve for `kind`: the new version if valid, the unchanged
    /// previous one, the previous good one if the new version fails, or nil.
    private mutating func loadFile(
        kind: ServedFile.Kind,
        path: String,
        host: String,
        previous: ServedFile?
    )
        -> ServedFile?
    {
        let info: FileSystem.Info
        do {
            info = try FileSystem.linkInfo(path)
        } catch {
            if error.reason.contains("No such file") { return nil }
            issues.append(LoadIssue(host: host, path: path, message: error.reason))
            return previous
        }
        if info.type == .symlink {
            guard let resolved = try? FileSystem.canonicalPath(path), resolved.hasPrefix(root + "/") else {
                issues.append(
                    LoadIssue(host: host, path: path, message: "symlink leaves the served directory; refused")
                )
                return previous
            }
        }
        let currentStamp = try? FileSystem.info(path).stamp
        if !force, let previous, previous.stamp == currentStamp {
            return previous
        }
        // A rejected file is not validated (nor logged) again until it changes;
        // SIGHUP always re-reads it.
        if !force, let known = self.previous.rejected[path], known.stamp == currentStamp {
            issues += known.issues
            rejected[path] = known
            return previous
        }
        let contents: [UInt8]
        let stamp: FileSystem.Stamp
        do {
            // The cap is checked on what is read, not on a stat taken before:
            // the file may be growing (a copy in progress).
            let read = try FileSystem.readRegularFile(path, limit: AASAValidator.maximumFileSize)
            contents = read.bytes
            stamp = read.info.stamp
        } catch {
            issues.append(LoadIssue(host: host, path: path, message: error.reason))
            return previous
        }
        if let previous, previous.digest == SHA256.hash(data: contents) {
            return previous.restamped(stamp)
        }
        filesValidated += 1
        let report =
            switch kind {
            case .appleAppSiteAssociation: loader.validator.validate(bytes: contents, file: path)
            case .assetLinks: loader.assetLinksValidator.validate(bytes: contents, file: path)
            }
        let relative = String(path.dropFirst(root.count + 1))
        let errors = report.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else {
            let kept = previous == nil ? "not served" : "the previous version stays served"
            let fileIssues = errors.map { error in
                LoadIssue(
                    host: host,
                    path: relative,
                    message: "\(error.path): \(error.message) [\(error.code)]; \(kept)"
                )
            }
            issues += fileIssues
            rejected[path] = RejectedFile(stamp: stamp, issues: fileIssues)
            return previous
        }
        for diagnostic in report.diagnostics where diagnostic.severity == .warning {
            warnings.append(LoadIssue(host: host, path: relative, message: "\(diagnostic.path): \(diagnostic.message)"))
        }
        return ServedFile(
            kind: kind,
            path: path,
            contents: contents,
            stamp: stamp,
            lastModified: Date(timeIntervalSince1970: Double(stamp.modifiedNanoseconds) / 1e9),
            appIDs: report.document.map(Self.appIDs) ?? report.json.map(Self.packageNames) ?? [],
            warnings: report.diagnostics.filter { $0.severity == .warning }.map { "\($0.path): \($0.message)" },
            cacheControl: loader.cacheControl
        )
    }

    mutating func resolveSymlinkAliases() {
        for alias in symlinkAliases {
            guard let target = sites[alias.target] else {
                issues.append(
                    LoadIssue(
                        host: alias.name,
                        path: alias.path,
                        message: "alias of \(alias.target), which is not served"
                    )
                )
                continue
            }
            sites[alias.name] = target
        }
    }

    mutating func applyConfiguredAliases() {
        for entry in loader.hosts.aliases {
            let parts = entry.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let alias = SiteKey(directoryName: parts[0]),
                let target = SiteKey(directoryName: parts[1])
            else {
                issues.append(LoadIssue(host: nil, path: "hosts.aliases", message: "not `alias=target`: \(entry)"))
                continue
            }
            guard let host = sites[target.name] else {
                issues.append(
                    LoadIssue(
                        host: alias.name,
                        path: "hosts.aliases",
                        message: "alias target \(target.name) is not served"
                    )
                )
                continue
            }
            // A host's own directory is more specific than a configured alias.
            guard sites[alias.name] == nil else {
                issues.append(
                    LoadIssue(
                        host: alias.name,
                        path: "hosts.aliases",
                        message: "\(alias.name) has its own directory; alias ignored"
                    )
                )
                continue
            }
            sites[alias.name] = host
        }
    }

    mutating func finish() -> LoadOutcome {
        var exact: [String: SiteHost] = [:]
        var wildcards: [String: SiteHost] = [:]
        for (name, host) in sites {
            if name.hasPrefix("*.") {
                wildcards[String(name.dropFirst(2))] = host
            } else {
                exact[name] = host
            }
        }
        var defaultIdentity: LoadedIdentity?
        if let certificate = loader.tls.certificatePath, let key = loader.tls.keyPath {
            defaultIdentity = loadIdentity(
                certificatePath: certificate,
                keyPath: key,
                host: nil,
                previous: previous.defaultIdentity,
                label: "tls.certificate"
            )
        }
        var issues = self.issues
        var fallback: SiteHost?
        if let name = loader.hosts.defaultHost {
            fallback = HostName(name: name).flatMap { exact[$0.value] }
            if fallback == nil {
                issues.append(
                    LoadIssue(host: name, path: "hosts.default", message: "default host \(name) is not served")
                )
            }
        }
        // Nothing changed (the common poll): keep the snapshot, so the
        // generation only moves when what is served moves.
        let unchanged =
            sites.count == previous.sites.count
            && sites.allSatisfy { name, host in previous.sites[name] === host }
            && fallback === previous.fallback
            && defaultIdentity?.identity.chain == previous.defaultIdentity?.identity.chain
            && rejected == previous.rejected
        if unchanged, previous.generation > 0 {
            return LoadOutcome(snapshot: previous, issues: issues, warnings: warnings, filesValidated: filesValidated)
        }
        let snapshot = SiteSnapshot(
            sites: sites,
            exact: exact,
            wildcards: wildcards,
            fallback: fallback,
            defaultIdentity: defaultIdentity,
            rejected: rejected,
            loadedAt: Date(),
            generation: previous.generation + 1
        )
        return LoadOutcome(snapshot: snapshot, issues: issues, warnings: warnings, filesValidated: filesValidated)
    }

    private static func appIDs(_ document: AASAFile) -> [String] {
        var seen = Set<String>()
        let all =
            document.appLinksAppIDs + (document.webCredentials ?? []) + (document.appClips ?? [])
            + (document.activityContinuation ?? [])
        return all.filter { seen.insert($0).inserted }
    }

    /// Android package names of an assetlinks.json, for `/status`.
    private static func packageNames(_ json: JSONValue) -> [String] {
        (json.arrayValue ?? []).compactMap { $0["target"]?["package_name"]?.stringValue }
    }
}

/// A file version that failed validation, and what was wrong with it.
struct RejectedFile: Sendable, Equatable {
    let stamp: FileSystem.Stamp
    let issues: [LoadIssue]
}

/// A host directory name: a host name or a `*.`-prefixed wildcard.
struct SiteKey {
    let name: String

    init?(directoryName: String) {
        if directoryName.hasPrefix("*.") {
            guard let suffix = HostName(name: String(directoryName.dropFirst(2))), suffix.value.contains(".") else {
                return nil
            }
            name = "*." + suffix.value
        } else {
            guard let host = HostName(name: directoryName) else { return nil }
            name = host.value
        }
    }
}
