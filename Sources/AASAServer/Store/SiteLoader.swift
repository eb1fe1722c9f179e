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
    /// Threads validating the files of one load.
    let parallelism: Int
    /// Hosts read before their files are validated together.
    let batchSize: Int

    /// - Parameter parallelism: threads validating at once; the server
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
        parallelism: Int = 1,
        batchSize: Int = 256
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
        self.batchSize = max(1, batchSize)
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
        let scan = try DirectoryScan(root: root)
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
        // An entry that exists but cannot be opened keeps what it served.
        for failure in scan.unopened {
            guard !failure.isMissing else {
                issues.append(failure.issue(kept: nil))
                continue
            }
            let previousHost = previous.sites[failure.name.name]
            issues.append(failure.issue(kept: LoadIssue.kept(previous: previousHost != nil)))
            parts.sites[failure.name.name] = previousHost
        }
        // By batches of hosts: read a batch (the disk, in order), validate
        // what changed in it on all the threads at once, then put its hosts
        // together in the order they were read: the same outcome as one pass,
        // host by host. Batches, not the whole directory at once: the bytes
        // read wait for validation, and at 10,000 hosts they would fragment
        // the heap between the files kept. The next batch is read while one
        // is validated, so the disk and the validating threads overlap.
        let batches = stride(from: 0, to: scan.hosts.count, by: batchSize).map {
            $0..<min(scan.hosts.count, $0 + batchSize)
        }
        let validation = ParallelValidation(validator: validator, width: parallelism)
        var nextReads = batches.first.map { read(scan.hosts[$0], reader: reader, previous: previous) } ?? []
        for index in batches.indices {
            let reads = nextReads
            let candidates = reads.flatMap { entry in
                SiteFile.allCases.compactMap { kind -> FileValidator.Candidate? in
                    guard case .pending(let candidate, _) = entry.read.files[kind] else { return nil }
                    return candidate
                }
            }
            let running = validation.start(candidates)
            nextReads =
                index + 1 < batches.count
                ? read(scan.hosts[batches[index + 1]], reader: reader, previous: previous) : []
            var verdicts = running.wait().makeIterator()
            for (host, previousHost, read) in reads {
                let name = host.name.name
                issues += read.issues
                parts.rejected.merge(read.rejected) { $1 }
                parts.missing.formUnion(read.missing)
                var files: [SiteFile: ServedFile] = [:]
                for kind in SiteFile.allCases {
                    switch read.files[kind] {
                    case nil:
                        continue
                    case .served(let file):
                        files[kind] = file
                    case .pending(let candidate, let previousFile):
                        filesValidated += 1
                        switch verdicts.next() {
                        case .accepted(let file, let fileWarnings):
                            files[kind] = file
                            warnings += fileWarnings
                        case .rejected(let fileIssues):
                            issues += fileIssues
                            parts.rejected[candidate.path] = RejectedFile(stamp: candidate.stamp, issues: fileIssues)
                            files[kind] = previousFile
                        case nil:
                            preconditionFailure("one verdict per candidate")
                        }
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
                    continue
                }
                parts.sites[name] = site(name, files: files, identity: read.identity, previous: previousHost)
            }
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

    /// One batch of hosts read from disk, each with its previous instance.
    private func read(
        _ hosts: ArraySlice<DirectoryScan.HostDirectory>,
        reader: HostReader,
        previous: SiteSnapshot
    ) -> [(host: DirectoryScan.HostDirectory, previous: SiteHost?, read: HostReader.Result)] {
        hosts.map { host in
            let previousHost = previous.sites[host.name.name]
            return (host, previousHost, reader.read(host, previous: previousHost))
        }
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
