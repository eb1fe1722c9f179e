import AASAKit

/// The first step of a load: the entries of the served directory, sorted
/// into host directories, symlinked aliases of sibling hosts, and issues.
/// Regular files (a README) and hidden entries (`.git`, `..data`) are
/// passed over in silence.
///
/// The scan opens no host directory for longer than a look: each is opened
/// by the job that reads it (``HostEntry/open(in:)``) and closed when that
/// job ends, so a load holds a few descriptors per thread whatever the
/// number of hosts. Holding every host directory open from the scan to its
/// read needed one descriptor per host: 10,000 hosts under the usual soft
/// limit of 1,024 (256 on macOS) failed every host with EMFILE.
struct DirectoryScan {
    /// A host directory, open, and where it really is inside the root.
    struct HostDirectory {
        let name: HostDirectoryName
        let directory: any DirectoryHandle
        let location: [String]
    }

    /// An entry that is a host's own directory (directly, or through a
    /// symlink deeper into the root, as in a ConfigMap volume), not opened.
    struct HostEntry {
        let name: HostDirectoryName
        /// The entry's name in the root.
        let entry: String
        /// What the scan saw when the entry is a directory: its open then
        /// looks no further. A symlink is resolved again, from its name.
        let directoryStatus: FileStatus?

        /// Opens the entry as its host's directory, through the root's
        /// resolution (symlinks followed inside the root only). An entry
        /// changed since the scan opens as what it is now; one that no
        /// longer opens as a directory fails like an unopened entry.
        func open(in root: ServedRoot) -> Swift.Result<HostDirectory, Unopened> {
            do throws(FileSystemError) {
                let opened = try root.open(
                    entry,
                    in: root.directory,
                    at: [],
                    expecting: .directory,
                    status: directoryStatus
                )
                guard case .directory(let directory, let location) = opened else {
                    throw FileSystemError(path: LoadIssue.printable(entry), code: .notADirectory)
                }
                return .success(HostDirectory(name: name, directory: directory, location: location))
            } catch {
                return .failure(Unopened(name: name, error: error, isLink: directoryStatus == nil))
            }
        }
    }

    /// An entry that is a symlink to a sibling host directory: the same
    /// host under another name.
    struct Alias {
        let name: HostDirectoryName
        let target: HostDirectoryName
        /// The entry's path, for messages.
        let path: String
    }

    /// An entry named like a host that could not be opened as a directory.
    struct Unopened: Error {
        let name: HostDirectoryName
        let error: FileSystemError
        let isLink: Bool

        /// Gone rather than unreadable: nothing is kept for it beyond the
        /// grace every missing host gets.
        var isMissing: Bool { error.code == .notFound }

        /// The issue, with what is served instead.
        func issue(kept: String?) -> LoadIssue {
            let context: String? =
                switch error.code {
                case .leavesServedDirectory: nil
                case .notFound, .notADirectory, .notARegularFile, .tooManyLinks:
                    isLink ? "unresolvable symlink" : "cannot read the host directory"
                default: "cannot read the host directory"
                }
            return LoadIssue(host: name.name, error: error, context: context, kept: kept)
        }
    }

    var hosts: [HostEntry] = []
    var unopened: [Unopened] = []
    var aliases: [Alias] = []
    var issues: [LoadIssue] = []
    /// Every host name with an entry, served or not: a host whose directory
    /// exists is never kept served from a previous load as "missing".
    var seen: Set<String> = []

    /// Scans the root. Throws only when the root itself cannot be listed.
    /// The entries are looked at (and symlinks resolved) on up to `width`
    /// threads, and recorded in the order they are listed.
    init(root: ServedRoot, width: Int = 1) throws(FileSystemError) {
        let entries = try root.directory.entries().filter { !SiteLayout.isHidden($0) }
        let probe = { (index: Int) in Probe(entries[index], root: root) }
        ParallelHosts(width: width).forEach(count: entries.count, probe) { _, probe in record(probe) }
    }

    /// What one entry is, and where a symlink named like a host leads: the
    /// part of the scan that touches the disk, independent of every other
    /// entry's.
    private struct Probe {
        let entry: String
        let status: Result<FileStatus, FileSystemError>
        let name: HostDirectoryName?
        /// Set for a symlink named like a host: the directory it resolves
        /// to, as a place inside the root (the directory itself is closed
        /// at once).
        let resolved: Result<[String], FileSystemError>?

        init(_ entry: String, root: ServedRoot) {
            self.entry = entry
            let status = Result { () throws(FileSystemError) in try root.directory.status(of: entry) }
            self.status = status
            name = HostDirectoryName(entry)
            guard case .success(let known) = status, name != nil, known.kind == .symbolicLink else {
                resolved = nil
                return
            }
            resolved = Result { () throws(FileSystemError) in
                let opened = try root.open(entry, in: root.directory, at: [], expecting: .directory, status: known)
                guard case .directory(_, let location) = opened else {
                    throw FileSystemError(path: LoadIssue.printable(entry), code: .notADirectory)
                }
                return location
            }
        }
    }

    private mutating func record(_ probe: Probe) {
        let entry = probe.entry
        let status: FileStatus
        switch probe.status {
        case .success(let known):
            status = known
        case .failure(let error):
            // Gone between listing and looking: as if it had not been listed.
            if error.code != .notFound {
                issues.append(
                    LoadIssue(host: nil, error: FileSystemError(path: LoadIssue.printable(entry), code: error.code))
                )
            }
            return
        }
        switch status.kind {
        case .regular:
            return  // README.md and the like sit beside the host directories.
        case .directory, .symbolicLink:
            break
        case .special(let kind):
            issues.append(
                LoadIssue(
                    host: nil,
                    path: LoadIssue.printable(entry),
                    code: .notAHostDirectory,
                    message: "not a host directory (\(kind)); ignored"
                )
            )
            return
        }
        guard let name = probe.name else {
            issues.append(
                LoadIssue(
                    host: nil,
                    path: LoadIssue.printable(entry),
                    code: .notAHostDirectory,
                    message: "not a valid host name; a host directory is named like `example.com` or `*.example.com`"
                )
            )
            return
        }
        guard seen.insert(name.name).inserted else {
            issues.append(
                LoadIssue(
                    host: name.name,
                    path: LoadIssue.printable(entry),
                    code: .notAHostDirectory,
                    message: "a second directory for host \(name.name); ignored"
                )
            )
            return
        }
        guard status.kind == .symbolicLink, let resolved = probe.resolved else {
            hosts.append(HostEntry(name: name, entry: entry, directoryStatus: status))
            return
        }
        let location: [String]
        switch resolved {
        case .success(let place):
            location = place
        case .failure(let error):
            unopened.append(Unopened(name: name, error: error, isLink: true))
            // A dangling link (or an entry gone since it was listed) counts
            // as missing, so a host served through it gets the same grace as
            // a vanished directory, and no more.
            if error.code == .notFound { seen.remove(name.name) }
            return
        }
        // A symlink to a sibling is an alias of that host; one deeper inside
        // the root (a ConfigMap's `..data/host`) is this host's directory.
        if location.count == 1 {
            guard let target = HostDirectoryName(location[0]) else {
                issues.append(
                    LoadIssue(
                        host: name.name,
                        path: LoadIssue.printable(entry),
                        code: .notAHostDirectory,
                        message: "symlink to \(LoadIssue.printable(location[0])), not a host directory"
                    )
                )
                return
            }
            aliases.append(Alias(name: name, target: target, path: LoadIssue.printable(entry)))
            return
        }
        hosts.append(HostEntry(name: name, entry: entry, directoryStatus: nil))
    }
}
