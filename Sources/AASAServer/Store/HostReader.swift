import AASAKit

/// The second step of a load, for one host directory: each served file and
/// the `tls/` identity, opened through the root, read only when the
/// validation cache says so. What needs validating is returned as a
/// candidate rather than validated here, so validation can be batched.
struct HostReader {
    let root: ServedRoot
    let cache: ValidationCache
    let reader: FileReader
    let identities: IdentityLoader
    /// Paths the previous load kept serving although they were missing.
    let missingBefore: Set<String>

    /// A file of the host after reading.
    enum FileState {
        /// Served as is (unchanged, same bytes, or the previous good version
        /// kept after a failure).
        case served(ServedFile)
        /// Read and waiting for validation; `previous` stays served if it fails.
        case pending(FileValidator.Candidate, previous: ServedFile?)
    }

    /// Everything read from one host directory.
    struct Result {
        var files: [SiteFile: FileState] = [:]
        var identity: LoadedIdentity?
        var issues: [LoadIssue] = []
        var rejected: [String: RejectedFile] = [:]
        /// Files missing now, still served from the previous load.
        var missing: [String] = []
    }

    func read(_ host: DirectoryScan.HostDirectory, previous: SiteHost?) -> Result {
        var result = Result()
        // A name looked up in the directory proves it can be searched; only
        // when the first file's lookup fails is the directory itself looked
        // at (one system call per host less on every load).
        var searchable = false
        for kind in SiteFile.allCases {
            readFile(kind, of: host, previous: previous?.file(kind), into: &result, searchable: &searchable)
            if !searchable {
                if let unreadable = Self.unsearchable(host, previous: previous) { return unreadable }
                searchable = true
            }
        }
        result.identity = readIdentity(of: host, previous: previous?.tls, issues: &result.issues)
        return result
    }

    /// One issue for a directory that cannot be searched (no `x`
    /// permission), rather than one per file inside it, and the previous
    /// files kept; nil if it can be.
    private static func unsearchable(_ host: DirectoryScan.HostDirectory, previous: SiteHost?) -> Result? {
        do {
            _ = try host.directory.status(of: ".")
            return nil
        } catch {
            let name = host.name.name
            var result = Result()
            let cannot = FileSystemError(path: LoadIssue.printable(name), code: error.code)
            result.issues.append(
                LoadIssue(
                    host: name,
                    error: cannot,
                    context: "cannot read the host directory",
                    kept: LoadIssue.kept(previous: previous != nil)
                )
            )
            for kind in SiteFile.allCases {
                if let file = previous?.file(kind) { result.files[kind] = .served(file) }
            }
            result.identity = previous?.tls
            return result
        }
    }

    private func readFile(
        _ kind: SiteFile,
        of host: DirectoryScan.HostDirectory,
        previous: ServedFile?,
        into result: inout Result,
        searchable: inout Bool
    ) {
        let name = host.name.name
        // One exactly sized string: the path is kept by every served file,
        // and `a + "/" + b` leaves it in a buffer grown for appending.
        var path = ""
        path.reserveCapacity(name.utf8.count + 1 + kind.fileName.utf8.count)
        path += name
        path += "/"
        path += kind.fileName
        let version: FileReader.Version
        do throws(FileSystemError) {
            // The status first: an unchanged file is not even opened. A
            // file with no previous version (every file of the first load)
            // is read whatever its stamp, so it is opened at once.
            let opensAtOnce = previous == nil || cache.force
            let located = try root.open(
                kind.fileName,
                in: host.directory,
                at: host.location,
                expecting: opensAtOnce ? .regularFile : .fileStatus
            )
            searchable = true
            let opened: (any OpenFile)?
            let stamp: FileStamp
            switch located {
            case .file(let file):
                opened = file
                stamp = try reader.stamp(of: file)
            case .status(let status):
                guard status.kind == .regular else {
                    throw FileSystemError(path: path, code: .notARegularFile(status.kind))
                }
                opened = nil
                stamp = status.stamp
            case .directory:
                return
            }
            switch cache.decide(path: path, stamp: stamp, previous: previous) {
            case .unchanged(let served):
                result.files[kind] = .served(served)
                return
            case .stillRejected(let known):
                result.issues += known.issues
                result.rejected[path] = known
                if let previous { result.files[kind] = .served(previous) }
                return
            case .read:
                if let opened {
                    version = try reader.read(opened, stamp: stamp)
                } else {
                    let reopened = try root.open(kind.fileName, in: host.directory, at: host.location, expecting: .file)
                    guard case .file(let file) = reopened else { return }
                    version = try reader.read(file, stamp: try reader.stamp(of: file))
                }
            }
        } catch {
            if error.code == .notFound {
                // Missing for an instant (replaced by `rm` and a new copy) is
                // not deleted: the previous version stays until a load finds
                // the file still missing.
                if let previous, !cache.force, !missingBefore.contains(path) {
                    result.files[kind] = .served(previous)
                    result.missing.append(path)
                }
                return
            }
            result.issues.append(
                LoadIssue(
                    host: name,
                    error: FileSystemError(path: path, code: error.code),
                    kept: LoadIssue.kept(previous: previous != nil)
                )
            )
            if let previous { result.files[kind] = .served(previous) }
            return
        }
        if let same = cache.sameBytes(as: previous, contents: version.contents, stamp: version.stamp) {
            result.files[kind] = .served(same)
            return
        }
        let candidate = FileValidator.Candidate(
            kind: kind,
            host: name,
            path: path,
            contents: version.contents,
            stamp: version.stamp,
            hasPrevious: previous != nil
        )
        result.files[kind] = .pending(candidate, previous: previous)
    }

    /// The host's SNI certificate from `tls/cert.pem` and `tls/key.pem`, if
    /// it has a `tls` directory; a bad one keeps the previous.
    private func readIdentity(
        of host: DirectoryScan.HostDirectory,
        previous: LoadedIdentity?,
        issues: inout [LoadIssue]
    ) -> LoadedIdentity? {
        let name = host.name.name
        // Built for an issue only: nearly every host has no `tls/`.
        var label: String { "\(name)/\(SiteLayout.tlsDirectoryName)/\(SiteLayout.certificateFileName)" }
        do throws(FileSystemError) {
            let opened: ServedRoot.Resolved
            do {
                opened = try root.open(
                    SiteLayout.tlsDirectoryName,
                    in: host.directory,
                    at: host.location,
                    expecting: .directory
                )
            } catch  where error.code == .notFound {
                return nil
            }
            guard case .directory(let tls, let location) = opened else { return nil }
            // A poll compares the files' stamps before opening them: nearly
            // always neither changed, and a TLS host then costs two lookups
            // instead of two opens.
            if let previous, !identities.force, let stamps = try entryStamps(in: tls, at: location) {
                do {
                    if let unchanged = try identities.reuse(previous, certificate: stamps.certificate, key: stamps.key)
                    {
                        return unchanged
                    }
                } catch {
                    issues.append(Self.identityIssue(host: name, path: label, error.description, previous: previous))
                    return previous
                }
            }
            let certificate = try root.open(SiteLayout.certificateFileName, in: tls, at: location, expecting: .file)
            let key = try root.open(SiteLayout.keyFileName, in: tls, at: location, expecting: .file)
            guard case .file(let certificateFile) = certificate, case .file(let keyFile) = key else { return nil }
            do {
                return try identities.load(certificate: certificateFile, key: keyFile, host: name, previous: previous)
            } catch {
                issues.append(Self.identityIssue(host: name, path: label, error.description, previous: previous))
                return previous
            }
        } catch {
            issues.append(Self.identityIssue(host: name, path: label, error.description, previous: previous))
            return previous
        }
    }

    /// The stamps of `cert.pem` and `key.pem` from their entries, neither
    /// opened; nil when one is not a regular file (opening it says what).
    private func entryStamps(
        in tls: any DirectoryHandle,
        at location: [String]
    ) throws(FileSystemError) -> (certificate: FileStamp, key: FileStamp)? {
        let certificate = try root.open(SiteLayout.certificateFileName, in: tls, at: location, expecting: .fileStatus)
        let key = try root.open(SiteLayout.keyFileName, in: tls, at: location, expecting: .fileStatus)
        guard case .status(let certificate) = certificate, certificate.kind == .regular,
            case .status(let key) = key, key.kind == .regular
        else { return nil }
        return (certificate.stamp, key.stamp)
    }

    static func identityIssue(host: String?, path: String, _ problem: String, previous: LoadedIdentity?) -> LoadIssue {
        let kept = previous == nil ? "not used" : "the previous certificate stays in use"
        return LoadIssue(host: host, path: path, code: .certificate, message: "\(problem); \(kept)")
    }
}
