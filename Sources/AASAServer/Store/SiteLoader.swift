import AASAKit

/// Reads the served directory into a new snapshot, in four steps with a
/// type each: ``DirectoryScan`` (which entries are hosts), ``HostReader``
/// (each host's files, through the ``ValidationCache``), ``FileValidator``
/// (the files that changed) and ``SnapshotAssembler`` (aliases, the default
/// host, and whether anything served changed).
///
/// It never throws for a bad file or host, only reports, keeping per host
/// and file the previous good version; it throws only when the served
/// directory itself cannot be read (then the caller keeps the whole
/// previous snapshot).
public struct SiteLoader: Sendable {
    let directory: String
    let hosts: ServerConfiguration.Hosts
    let tls: ServerConfiguration.TLS
    let requestCounts: RequestCountTable
    let validator: FileValidator
    let fileSystem: any FileSystem
    /// Threads reading and validating the hosts of one load.
    let parallelism: Int

    /// - Parameter parallelism: threads reading and validating at once; the server
    ///   passes its event-loop count, the cores it is given.
    public init(
        configuration: ServerConfiguration,
        validator: AASAValidator = AASAValidator(),
        requestCounts: RequestCountTable = RequestCountTable(),
        parallelism: Int = 1
    ) {
        self.init(
            configuration: configuration,
            validator: validator,
            requestCounts: requestCounts,
            fileSystem: PosixFileSystem(),
            parallelism: parallelism
        )
    }

    /// A loader reading through `fileSystem` (tests stage races with it).
    init(
        configuration: ServerConfiguration,
        validator: AASAValidator = AASAValidator(),
        requestCounts: RequestCountTable = RequestCountTable(),
        fileSystem: any FileSystem,
        parallelism: Int = 1
    ) {
        self.directory = configuration.files.directory
        self.hosts = configuration.hosts
        self.tls = configuration.tls
        self.requestCounts = requestCounts
        self.validator = FileValidator(
            aasa: validator,
            assetLinks: AssetLinksValidator(),
            cacheControl: configuration.response.cacheControl
        )
        self.fileSystem = fileSystem
        self.parallelism = max(1, parallelism)
    }

    /// Loads the directory. `force` (SIGHUP) re-reads every file and takes
    /// the directory as it is; otherwise (a poll) files whose stamp is
    /// unchanged since `previous` are reused, and a file or host that
    /// vanished since then stays served until the next load.
    public func load(previous: SiteSnapshot, force: Bool) throws(FileSystemError) -> LoadOutcome {
        let root = ServedRoot(
            directory: try fileSystem.openDirectory(atPath: directory),
            absolutePaths: [directory] + (fileSystem.canonicalPath(directory).map { [$0] } ?? [])
        )
        let scan = try DirectoryScan(root: root, width: parallelism)
        let reader = HostReader(
            root: root,
            cache: ValidationCache(rejected: previous.rejected, force: force),
            reader: FileReader(limit: AASAValidator.maximumFileSize),
            identities: IdentityLoader(force: force),
            missingBefore: previous.missing
        )
        var issues = scan.issues
        var warnings: [LoadIssue] = []
        var filesValidated = 0
        var parts = SnapshotAssembler.Parts(aliases: scan.aliases, seen: scan.seen)
        for failure in scan.unopened {
            Self.record(failure, previous: previous, issues: &issues, parts: &parts)
        }
        // Each host read and its changed files validated in one job, the
        // hosts spread over the threads; each put together with the others
        // in the order they were listed: the same outcome as one pass, host
        // by host. The gzip streams are reused by the load's files and
        // freed with it.
        let gzip = GzipPool()
        // A host's directory is open only while its job runs.
        let job = { (index: Int) -> Result<HostLoad, DirectoryScan.Unopened> in
            let entry = scan.hosts[index]
            return entry.open(in: root).map { host in
                HostLoad(
                    host,
                    previous: previous.sites[entry.name.name],
                    reader: reader,
                    validator: validator,
                    gzip: gzip
                )
            }
        }
        ParallelHosts(width: parallelism).forEach(count: scan.hosts.count, job) { index, opened in
            let name = scan.hosts[index].name.name
            let load: HostLoad
            switch opened {
            case .success(let loaded):
                load = loaded
            case .failure(let failure):
                Self.record(failure, previous: previous, issues: &issues, parts: &parts)
                return
            }
            issues += load.issues
            parts.rejected.merge(load.rejected) { $1 }
            parts.missing.formUnion(load.missing)
            var files: [SiteFile: ServedFile] = [:]
            for kind in SiteFile.allCases {
                switch load.file(kind) {
                case nil:
                    continue
                case .served(let file):
                    files[kind] = file
                case .validated(.accepted(let file, let fileWarnings), _, _, _):
                    filesValidated += 1
                    files[kind] = file
                    warnings += fileWarnings
                case .validated(.rejected(let fileIssues), let path, let stamp, let previousFile):
                    filesValidated += 1
                    issues += fileIssues
                    parts.rejected[path] = RejectedFile(stamp: stamp, issues: fileIssues)
                    files[kind] = previousFile
                }
            }
            guard !files.isEmpty else {
                if !issues.contains(where: { $0.host == name }) {
                    issues.append(
                        LoadIssue(
                            host: name,
                            path: name,
                            code: .noServedFile,
                            message: "no \(SiteFile.allCases.map(\.fileName).joined(separator: " or "))"
                        )
                    )
                }
                return
            }
            parts.sites[name] = site(name, files: files, identity: load.identity, previous: load.previous)
        }
        parts.defaultIdentity = defaultIdentity(previous: previous.defaultIdentity, force: force, issues: &issues)
        let assembler = SnapshotAssembler(configuration: hosts, previous: previous, force: force)
        let (snapshot, missing) = assembler.assemble(parts, issues: &issues)
        return LoadOutcome(
            snapshot: snapshot,
            issues: issues,
            warnings: warnings,
            filesValidated: filesValidated,
            stillServedWhileMissing: missing.sorted()
        )
    }

    /// An entry that exists but cannot be opened keeps what it served; one
    /// gone since it was listed (or a dangling link) counts as missing, with
    /// the grace every vanished host gets, and no more. A dangling link is
    /// reported; a directory gone since the scan is as if never listed.
    private static func record(
        _ failure: DirectoryScan.Unopened,
        previous: SiteSnapshot,
        issues: inout [LoadIssue],
        parts: inout SnapshotAssembler.Parts
    ) {
        guard !failure.isMissing else {
            if failure.isLink { issues.append(failure.issue(kept: nil)) }
            parts.seen.remove(failure.name.name)
            return
        }
        let previousHost = previous.sites[failure.name.name]
        issues.append(failure.issue(kept: LoadIssue.kept(previous: previousHost != nil)))
        parts.sites[failure.name.name] = previousHost
    }

    /// The host for `files`: the previous instance when nothing in it changed.
    private func site(
        _ name: String,
        files: [SiteFile: ServedFile],
        identity: LoadedIdentity?,
        previous: SiteHost?
    ) -> SiteHost {
        if let previous, previous.appleAppSiteAssociation === files[.appleAppSiteAssociation],
            previous.assetLinks === files[.assetLinks], previous.tls?.certificateStamp == identity?.certificateStamp,
            previous.tls?.keyStamp == identity?.keyStamp
        {
            return previous
        }
        return SiteHost(
            name: name,
            appleAppSiteAssociation: files[.appleAppSiteAssociation],
            assetLinks: files[.assetLinks],
            tls: identity,
            counts: requestCounts.counts(for: name)
        )
    }

    /// The configured default certificate (`tls.certificate`, `tls.key`),
    /// read by the paths the operator gave; a bad one keeps the previous.
    private func defaultIdentity(
        previous: LoadedIdentity?,
        force: Bool,
        issues: inout [LoadIssue]
    ) -> LoadedIdentity? {
        guard let certificatePath = tls.certificatePath, let keyPath = tls.keyPath else { return nil }
        do {
            let certificate = try fileSystem.openFile(atPath: certificatePath)
            let key = try fileSystem.openFile(atPath: keyPath)
            do {
                return try IdentityLoader(force: force).load(
                    certificate: certificate,
                    key: key,
                    host: nil,
                    previous: previous
                )
            } catch {
                issues.append(
                    HostReader.identityIssue(host: nil, path: "tls.certificate", error.description, previous: previous)
                )
            }
        } catch {
            issues.append(
                HostReader.identityIssue(host: nil, path: "tls.certificate", error.description, previous: previous)
            )
        }
        return previous
    }
}
